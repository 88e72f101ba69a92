import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'tool-pinning',
  description: 'Withholds a tool whose definition changed, or a new one, until an operator approves it (pinTools, hub-admin tools, /tool-approvals).',
  enabledByDefault: true,
};

export default manifest;
