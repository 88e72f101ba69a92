import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'console',
  description: 'The operator console at /console: add, edit, test, disable and remove servers from a web page, behind the operator login.',
  enabledByDefault: true,
};

export default manifest;
