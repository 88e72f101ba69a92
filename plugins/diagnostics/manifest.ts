import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'diagnostics',
  description: 'Adds describe_connection to /hub: the revision, the hub version and the elicitation decision for a server.',
  enabledByDefault: (env) => env.MCP_DIAGNOSTICS === 'true',
};

export default manifest;
