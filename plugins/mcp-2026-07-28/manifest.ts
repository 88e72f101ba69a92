import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'mcp-2026-07-28',
  description: 'Serves MCP 2026-07-28 (server/discover, subscriptions/listen, input-required elicitation), to callers and toward children.',
};

export default manifest;
