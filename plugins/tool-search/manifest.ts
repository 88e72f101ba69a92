import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'tool-search',
  description:
    "Adds search_tools to /hub: a ranked search over every reachable server's tools, sleeping ones from their snapshot, waking none (also on the status page and in hub-admin tools search).",
  enabledByDefault: false,
  adminCommands: [{ name: 'tools search', summary: "search every server's tools (from their snapshots; nothing is started)", usage: 'tools search <query> [--server <name>] [--limit <1-25>]' }],
};

export default manifest;
