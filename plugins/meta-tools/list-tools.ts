import type { Tool } from '@modelcontextprotocol/server';
import { findHubServer } from './lookup.js';
import { ListToolsOutput, ServerInput, type ToolEntry } from './schemas.js';
import type { PluginHub, ServerView } from '../../core/plugin/index.js';
import { descriptionLine, type MetaTool, structured, toolError } from '../../core/plugin/meta-tool.js';

/**
 * One server's tools from the hub's cached list. A sleeping server answers from its
 * snapshot and is started in the background so the call that likely follows is quick;
 * one never seen is started first; an always-running server has no snapshot, so one that
 * is not up is an error.
 */
export function listTools(hub: PluginHub): MetaTool {
  return {
    name: 'list_tools',
    description: "Lists one server's tools: name, one-line description and the server's own annotations. Next, call get_tool_schema for the arguments of the tool you want, then call_tool.",
    inputSchema: ServerInput,
    outputSchema: ListToolsOutput,
    annotations: { title: 'List tools', readOnlyHint: true },
    async call(args, context) {
      const { server } = args as ServerInput;
      const found = findHubServer(hub, server, context.request);
      if (!found.ok) return found.error;
      const child = found.value;
      if (child.alwaysRunning && child.status !== 'up') {
        const reason = child.lastError === undefined ? '' : ` (${child.lastError})`;
        return toolError(`Server "${child.name}" is ${child.status}${reason}; it is always running and is not up now, so its tools are unknown. Try again shortly.`);
      }
      if (!child.toolsKnown) {
        // Never started and no snapshot: an empty list would read as "no tools", so the
        // first start is awaited (within the wake budget) to learn the real list.
        try {
          await child.ensureToolsKnown();
        } catch (error) {
          return toolError(
            `The tools of server "${child.name}" are not known: it has never started and it cannot start now (${(error as Error).message}). Tell the user; list_servers shows its status.`,
          );
        }
      } else if (child.status === 'sleeping') {
        // Pre-warm without waiting: listing a known list never waits for a start.
        child.ensureUp().catch(() => undefined);
      }
      if (child.unknownYet.length > 0) await wakeUnknownYet(hub, child);
      await child.recheckWithheld();
      const shown = await child.toolsShownTo(context.revision.revision);
      return structured({ server: child.name, tools: shown.map(toolEntry) } satisfies ListToolsOutput);
    },
  };
}

/**
 * A virtual server's members whose tools it has never seen (it selects all of them with
 * `*`) are woken as a server never seen is, within their own budget, and the virtual
 * server lists again: an empty part would read as "no tools". One that cannot start stays
 * left out (`hub check` and the kit's `/mcp` list name it).
 */
async function wakeUnknownYet(hub: PluginHub, child: ServerView): Promise<void> {
  await Promise.allSettled(child.unknownYet.map((member) => hub.servers.get(member)?.ensureToolsKnown()).filter((knowing) => knowing !== undefined));
  await child.refreshTools();
}

function toolEntry(tool: Tool): ToolEntry {
  return {
    name: tool.name,
    description: descriptionLine(tool.description),
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    ...(tool.outputSchema !== undefined && { hasOutputSchema: true as const }),
  };
}
