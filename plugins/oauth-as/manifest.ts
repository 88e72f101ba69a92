import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'oauth-as',
  description: 'Inbound OAuth: the hub as authorization server and resource server for its MCP endpoints.',
  enabledByDefault: true,
};

export default manifest;
