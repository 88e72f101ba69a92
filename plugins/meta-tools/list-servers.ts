import { ListServersOutput, NoInput, type ServerEntry } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { type MetaTool, structured } from '../../core/plugin/meta-tool.js';

/** Every configured server, read from memory: nothing is woken or asked. */
export function listServers(hub: PluginHub): MetaTool {
  return {
    name: 'list_servers',
    description:
      'Start here. Lists the MCP servers behind this hub with their status and tool count (absent while not yet known), and why a server is down. Next, call list_tools with a server name to see its tools. Sleeping servers wake by themselves on call_tool.',
    inputSchema: NoInput,
    outputSchema: ListServersOutput,
    annotations: { title: 'List servers', readOnlyHint: true },
    async call() {
      const servers = hub.servers.list().map(
        (child): ServerEntry => ({
          name: child.name,
          description: child.description,
          status: child.status,
          ...(child.toolsKnown && { toolCount: child.tools.length }),
          ...(child.problem !== undefined && { reason: child.problem }),
          ...(child.hidden && { hidden: true as const }),
        }),
      );
      return structured({ servers } satisfies ListServersOutput);
    },
  };
}
