import { Type } from 'typebox';
import { callTool } from './call-tool.js';
import { getToolSchema } from './get-tool-schema.js';
import { sleepServer, wakeServer } from './lifecycle.js';
import { listServers } from './list-servers.js';
import { listTools } from './list-tools.js';
import { ListServersOutput, ListToolsOutput, SleepServerOutput, ToolSchemaOutput, WakeServerOutput } from './schemas.js';
import { definePlugin } from '../../core/plugin/index.js';
import manifest from './manifest.js';

/**
 * The six tools of `/hub` (and of hub-stdio): discovery, schema lookup, calls and
 * lifecycle for every configured server, in the order a model is meant to use them.
 */
export default definePlugin({
  ...manifest,
  options: Type.Object({}, { additionalProperties: false }),
  publicSchemas: {
    'list_servers-output': ListServersOutput,
    'list_tools-output': ListToolsOutput,
    'get_tool_schema-output': ToolSchemaOutput,
    'wake_server-output': WakeServerOutput,
    'sleep_server-output': SleepServerOutput,
  },
  register(_app, _options, hub) {
    for (const tool of [listServers(hub), listTools(hub), getToolSchema(hub), callTool(hub), wakeServer(hub), sleepServer(hub)]) {
      hub.metaTools.add(tool.name, tool);
    }
  },
});
