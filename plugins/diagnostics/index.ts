import { Type } from 'typebox';
import { describeConnection } from './describe-connection.js';
import { ConnectionReport } from './schemas.js';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';

/**
 * `describe_connection` on `/hub` and hub-stdio: a seventh meta-tool, on when
 * `MCP_DIAGNOSTICS` is `true` (or when the config enables the plugin).
 */
export default definePlugin({
  ...manifest,
  // The seventh tool of /hub: listed after the six, and meaningless without list_servers.
  dependencies: ['meta-tools'],
  options: Type.Object({}, { additionalProperties: false }),
  publicSchemas: { 'describe_connection-output': ConnectionReport },
  register(_app, _options, hub) {
    const tool = describeConnection(hub);
    hub.metaTools.add(tool.name, tool);
  },
});
