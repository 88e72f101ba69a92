import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'meta-tools',
  description: 'The six tools of /hub: list_servers, list_tools, get_tool_schema, call_tool, wake_server, sleep_server.',
  enabledByDefault: true,
};

export default manifest;
