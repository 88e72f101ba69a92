import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { HUB_ERROR_CODES, HubError } from '../errors.js';
import { mayReach } from '../mcp/caller-request.js';
import { lookupTool } from '../mcp/known-tools.js';
import { toolError } from '../mcp/tool-results.js';
import type { ToolCall } from './tool-call.js';

/**
 * Whether the caller may reach the server at all: on `/hub`, one whose credentials are
 * limited to other servers is told the server does not exist, before anything is heard
 * or woken. Undefined when it may.
 */
export function unreachable(call: ToolCall): CallToolResult | undefined {
  return call.road === 'hub' && !mayReach(call.caller, call.server.name) ? toolError(`Unknown server: "${call.server.name}".`) : undefined;
}

/**
 * The resolve and gate stages, the one place that decides which tool a call reaches: a
 * `hub: false` server refused on `/hub` (HUB_ERR_SERVER_HIDDEN), a name the allow/deny
 * filter keeps out refused without waking anything, a server never seen woken (within the
 * call's wake budget) to learn its tools, and a tool a tool gate withholds (pinning)
 * answered with why. Returns the tool, a tool error for the caller, or undefined for a
 * tool the server does not have for callers. On `/<name>/mcp` (a transparent proxy) a
 * name the server does not list is the server's to answer while it is up: a stand-in with
 * an open schema. A server whose tools cannot be learnt throws its start's error.
 */
export async function resolveTool(call: ToolCall): Promise<Tool | CallToolResult | undefined> {
  const child = call.server;
  if (call.road === 'hub' && child.hidden) {
    call.outcome = 'refused';
    throw new HubError(HUB_ERROR_CODES.SERVER_HIDDEN, `server "${child.name}" is not offered through /hub (hub: false)`);
  }
  let tool: Awaited<ReturnType<typeof lookupTool>>;
  try {
    tool = await lookupTool(child, call.params.name, { wake: call.wake, askUnlisted: call.road === 'server' });
  } catch (error) {
    call.outcome = 'unavailable';
    throw error;
  }
  if (tool === 'denied') {
    call.outcome = 'denied';
    return undefined;
  }
  if (tool === 'unknown') {
    call.outcome = 'unknown_tool';
    return undefined;
  }
  if ('withheld' in tool) {
    call.outcome = 'refused';
    return toolError(tool.withheld);
  }
  // A name the server does not list, asked of the server: the answer is the server's, the call an unknown tool's.
  if (call.event && child.findTool(call.params.name) !== tool) call.outcome = 'unknown_tool';
  return tool;
}

/** Whether `resolveTool` gave a tool (rather than a caller's answer). */
export function isTool(resolved: Tool | CallToolResult): resolved is Tool {
  return 'inputSchema' in resolved;
}
