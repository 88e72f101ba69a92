import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'guard-secrets',
  description: 'Finds secrets (cloud keys, API tokens, private keys, JWTs, connection-string passwords) in tool arguments and results, and redacts them or refuses the call.',
  enabledByDefault: false,
};

export default manifest;
