import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'mcp-2025-11-25',
  description: 'Serves MCP 2025-11-25 (initialize), wrapping non-object structured output, to callers and toward children.',
};

export default manifest;
