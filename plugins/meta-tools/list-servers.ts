import { ListServersOutput, NoInput, type ServerEntry } from './schemas.js';
import type { PluginHub } from '../../core/plugin/index.js';
import { mayReach, type MetaTool, structured } from '../../core/plugin/meta-tool.js';

/**
 * Every configured server the caller may reach, read from memory: nothing is woken or
 * asked. Tools a tool gate withholds are named, so that a model can tell the user why a
 * tool it knew is missing.
 */
export function listServers(hub: PluginHub): MetaTool {
  return {
    name: 'list_servers',
    description:
      'Start here. Lists the MCP servers behind this hub with their status and tool count (absent while not yet known), and why a server is down. Next, call list_tools with a server name to see its tools. Sleeping servers wake by themselves on call_tool.',
    inputSchema: NoInput,
    outputSchema: ListServersOutput,
    annotations: { title: 'List servers', readOnlyHint: true },
    async call(_args, { request }) {
      const servers = hub.servers
        .list()
        .filter((child) => mayReach(request, child.name))
        .map((child): ServerEntry => {
          const withheld = child.withheldTools;
          return {
            name: child.name,
            description: child.description,
            status: child.status,
            ...(child.toolsKnown && { toolCount: child.tools.length }),
            ...(child.problem !== undefined && { reason: child.problem }),
            ...(child.hidden && { hidden: true as const }),
            ...(withheld.length > 0 && { withheldTools: withheld.map((tool) => tool.name) }),
          };
        });
      return structured({ servers } satisfies ListServersOutput);
    },
  };
}
