import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { ToolRoute } from '../children/child-type.js';
import { HUB_ERROR_CODES, HubError } from '../errors.js';
import { toolError } from './tool-results.js';
import { observeRouted } from './observation.js';
import type { ToolCall } from './tool-call.js';
import { unknownServerMessage } from './unknown-target.js';
import { hubStanding, lookupTool, type ToolLookup } from './visibility.js';

/** The servers a routed call may go to, by name. */
export interface RouteTargets {
  get(name: string): Child | undefined;
}

/**
 * Whether the caller may reach the server at all: on `/hub`, one whose credentials are
 * limited to other servers is told the server does not exist, before anything is heard
 * or woken. Undefined when it may.
 */
export function unreachable(call: ToolCall): CallToolResult | undefined {
  return call.road === 'hub' && hubStanding(call.server, call.caller) === 'unreachable' ? toolError(unknownServerMessage(call.server.name)) : undefined;
}

/**
 * The resolve and gate stages' commonest answer, found without waiting: a tool the server
 * lists for callers, on a server whose tools and capabilities are known, that routes
 * nowhere else and that the road may reach. Undefined whenever `resolveTool` has more to
 * say (a refusal, a wake, a recheck, a route): the same decision, without its promises.
 */
export function resolvedNow(call: ToolCall): Tool | undefined {
  const child = call.server;
  if (child.childType.routeTool !== undefined || !child.toolsKnown || child.capabilities === undefined) return undefined;
  if (call.road === 'hub' && hubStanding(child, call.caller) === 'hidden') return undefined;
  return child.isToolAllowed(call.params.name) ? child.findTool(call.params.name) : undefined;
}

/**
 * The resolve and gate stages: which tool a call reaches, as core/calls/visibility.ts
 * decides it for listing and calling alike: a
 * `hub: false` server refused on `/hub` (HUB_ERR_SERVER_HIDDEN), a name the allow/deny
 * filter keeps out refused without waking anything, a server never seen woken (within the
 * call's wake budget) to learn its tools, and a tool a tool gate withholds (pinning)
 * answered with why. Returns the tool, a tool error for the caller, or undefined for a
 * tool the server does not have for callers. On `/<name>/mcp` (a transparent proxy) a
 * name the server does not list is the server's to answer while it is up: a stand-in with
 * an open schema. A server whose tools cannot be learnt throws its start's error.
 *
 * A server whose type routes its tools to other servers' (`ChildType.routeTool`, a
 * virtual server) passes its own gates first (reach, `hub: false`, its filter and tool
 * gates), then the call becomes the underlying server's (see `routed`).
 */
export async function resolveTool(call: ToolCall, targets: RouteTargets): Promise<Tool | CallToolResult | undefined> {
  const child = call.server;
  if (call.road === 'hub' && hubStanding(child, call.caller) === 'hidden') {
    call.outcome = 'refused';
    throw new HubError(HUB_ERROR_CODES.SERVER_HIDDEN, `server "${child.name}" is not offered through /hub (hub: false)`);
  }
  const type = child.childType;
  const routes = type.routeTool !== undefined;
  let tool: ToolLookup;
  try {
    tool = await lookupTool(child, call.params.name, { wake: call.wake, askUnlisted: call.road === 'server' && !routes });
  } catch (error) {
    call.outcome = 'unavailable';
    throw error;
  }
  if (tool === 'unknown' && routes) tool = await afterWakingUnknown(call, targets);
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
  if (type.routeTool) return routed(call, targets, type.routeTool(child.name, call.params.name));
  // A name the server does not list, asked of the server: the answer is the server's, the call an unknown tool's.
  if (child.findTool(call.params.name) !== tool) call.outcome = 'unknown_tool';
  return tool;
}

/**
 * A virtual server's tool, past the virtual server's own gates: from here the call is the
 * underlying server's (its filter, tool gates, interceptors, timeout, progress), within
 * what is left of the request's wake budget. Neither its `hub: false` nor the caller's
 * reach is asked of the underlying server: a caller that may reach the virtual server may
 * call what it offers. A route to a server or tool that is gone is an unknown tool.
 */
async function routed(call: ToolCall, targets: RouteTargets, route: ToolRoute | undefined): Promise<Tool | CallToolResult | undefined> {
  const underlying = route && targets.get(route.server);
  if (!route || !underlying) {
    call.outcome = 'unknown_tool';
    return undefined;
  }
  const wake = call.wake?.forChild(underlying);
  let tool: ToolLookup;
  try {
    tool = await lookupTool(underlying, route.tool, { wake });
  } catch (error) {
    routeTo(call, underlying, route.tool, wake);
    call.outcome = 'unavailable';
    throw error;
  }
  // The caller is told of the tool it named: the virtual server's.
  if (tool === 'denied' || tool === 'unknown') {
    call.outcome = 'unknown_tool';
    return undefined;
  }
  routeTo(call, underlying, route.tool, wake);
  if ('withheld' in tool) {
    call.outcome = 'refused';
    return toolError(tool.withheld);
  }
  return tool;
}

/**
 * A name a virtual server does not route, while servers it draws every tool of have never
 * run: those are woken (within what is left of the call's budget), the virtual server
 * lists again, and the name is looked up once more. A name still unknown after a member
 * failed to start is that member's failure (the caller is told why, not "unknown tool").
 */
async function afterWakingUnknown(call: ToolCall, targets: RouteTargets): Promise<ToolLookup> {
  const members = call.server.unknownYet.flatMap((name) => targets.get(name) ?? []);
  if (members.length === 0) return 'unknown';
  const woken = await Promise.allSettled(members.map((member) => (call.wake ? call.wake.forChild(member).known() : member.ensureToolsKnown())));
  await call.server.refreshTools();
  let tool: ToolLookup;
  try {
    tool = await lookupTool(call.server, call.params.name, { wake: call.wake });
  } catch (error) {
    call.outcome = 'unavailable';
    throw error;
  }
  const failed = woken.find((outcome) => outcome.status === 'rejected');
  if (tool === 'unknown' && failed) {
    call.outcome = 'unavailable';
    throw failed.reason;
  }
  return tool;
}

/** Whether `resolveTool` gave a tool (rather than a caller's answer). */
export function isTool(resolved: Tool | CallToolResult): resolved is Tool {
  return 'inputSchema' in resolved;
}

function routeTo(call: ToolCall, underlying: Child, tool: string, wake: ToolCall['wake']): void {
  const virtual = call.server;
  const named = call.params.name;
  call.server = underlying;
  call.params = { ...call.params, name: tool };
  call.virtual = { server: virtual, tool: named };
  call.wake = wake;
  observeRouted(call, virtual, named);
}
