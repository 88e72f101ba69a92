import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'tool-search',
  description: 'Adds search_tools to /hub: a ranked search over every reachable server\'s tools, sleeping ones from their snapshot, waking none (also on the status page and in hub-admin tools search).',
  enabledByDefault: false,
};

export default manifest;
