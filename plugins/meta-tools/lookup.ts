import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { PluginHub } from '../../core/plugin/index.js';
import { type CallerRequest, hubStanding, lookupTool, type ServerView, type ToolLookup, toolError, unknownServerMessage, unknownToolMessage } from '../../core/plugin/meta-tool.js';

/** Either what was looked up, or the tool error that answers the caller instead. */
export type Lookup<T> = { ok: true; value: T } | { ok: false; error: CallToolResult };

/**
 * Any configured server the caller may reach, `hub: false` ones included (lifecycle tools
 * accept those). One the caller's credentials do not reach gets the answer of one that
 * does not exist: they tell nothing of the servers beyond them.
 */
export function findServer(hub: PluginHub, name: string, request: CallerRequest): Lookup<ServerView> {
  const child = hub.servers.get(name);
  if (!child || hubStanding(child, request) === 'unreachable') return { ok: false, error: toolError(`${unknownServerMessage(name)} Call list_servers for the configured servers.`) };
  return { ok: true, value: child };
}

/** A server whose tools `/hub` offers; a `hub: false` one is pointed at its own endpoint. */
export function findHubServer(hub: PluginHub, name: string, request: CallerRequest): Lookup<ServerView> {
  const found = findServer(hub, name, request);
  if (!found.ok || hubStanding(found.value, request) !== 'hidden') return found;
  return { ok: false, error: hiddenServerError(hub, found.value) };
}

/** The answer about a `hub: false` server: its own endpoint. */
export function hiddenServerError(hub: PluginHub, child: ServerView): CallToolResult {
  const endpoint = `${hub.settings.baseUrl}/${child.name}/mcp`;
  return toolError(`Server "${child.name}" is not offered through /hub (hub: false). Use its own endpoint: ${endpoint}`);
}

/** The answer about a tool the server does not have for callers, unknown or filtered alike. */
export function unknownToolError(child: ServerView, name: string): CallToolResult {
  return toolError(`${unknownToolMessage(child.name, name)} Call list_tools with server "${child.name}" for its tools.`);
}

/**
 * A tool the caller may use, by the same decision as its call (`lookupTool`). A filtered
 * name and one that never existed get the same answer, before anything wakes; only a
 * server with no known tool list at all (never started, no snapshot) is woken to learn
 * whether the tool exists; if that fails the answer is `wakeFailurePrefix` and the reason.
 * A tool a tool gate withholds (its definition awaits an operator's approval) is answered
 * with the gate's reason.
 */
export async function findTool(child: ServerView, name: string, wakeFailurePrefix: string): Promise<Lookup<Tool>> {
  let tool: ToolLookup;
  try {
    tool = await lookupTool(child, name);
  } catch (error) {
    return { ok: false, error: toolError(`${wakeFailurePrefix}${(error as Error).message}`) };
  }
  if (tool === 'denied' || tool === 'unknown') return { ok: false, error: unknownToolError(child, name) };
  if ('withheld' in tool) return { ok: false, error: toolError(tool.withheld) };
  return { ok: true, value: tool };
}
