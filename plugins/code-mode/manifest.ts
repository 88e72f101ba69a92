import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'code-mode',
  description: 'Adds get_code_api and run_code to /hub: a short program against typed tool APIs, run in a QuickJS WebAssembly sandbox.',
  enabledByDefault: false,
};

export default manifest;
