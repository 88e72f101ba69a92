import {
  isInputRequiredResult,
  Server,
  type CallToolRequestParams,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { Hub, McpEra } from '../hub.js';
import type { CallerRequest } from './caller-request.js';
import { forwardToolCall } from './forward-call.js';
import { findKnownTool, knownTools, unknownToolError } from './known-tools.js';
import { relayed } from './relayed.js';

/**
 * The server behind `/<name>/mcp` for one request: a transparent proxy of tools,
 * resources, prompts and completion to one child, with the allow/deny filter applied and
 * the revision's differences left to its era. Listing reads the Child, never the wire.
 */
export function createChildServer(hub: Hub, child: Child, era: McpEra): Server {
  const known = child.capabilities;
  const server = new Server(endpointIdentity(hub, child), { capabilities: era.capabilities(known), instructions: child.instructions });

  server.setRequestHandler('tools/list', async () => ({ tools: (await knownTools(child)).map((tool) => era.presentTool(tool)) }));

  server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const result = await callChildTool(hub, child, era, request.params, ctx);
    // A filtered tool gets the answer of one that never existed, before anything wakes.
    if (!result) throw unknownToolError(child, request.params.name);
    return result;
  });

  if (known?.resources) {
    server.setRequestHandler('resources/list', async (request) => relayed(await (await child.ensureUp()).listResources(request.params)));
    server.setRequestHandler('resources/templates/list', async (request) => relayed(await (await child.ensureUp()).listResourceTemplates(request.params)));
    server.setRequestHandler('resources/read', async (request) => relayed(await (await child.ensureUp()).readResource(request.params)));
  }
  if (known?.prompts) {
    server.setRequestHandler('prompts/list', async (request) => relayed(await (await child.ensureUp()).listPrompts(request.params)));
    server.setRequestHandler('prompts/get', async (request) => relayed(await (await child.ensureUp()).getPrompt(request.params)));
  }
  if (known?.completions) {
    server.setRequestHandler('completion/complete', async (request) => relayed(await (await child.ensureUp()).complete(request.params)));
  }
  return server;
}

/** The server identity of `/<name>/mcp`. */
export function endpointIdentity(hub: Hub, child: Child): Implementation {
  return { name: child.name, title: child.description, version: hub.version };
}

/** A call on `/<name>/mcp`, as the revision delivers it; undefined for an unknown or filtered tool. */
export async function callChildTool(hub: Hub, child: Child, era: McpEra, params: CallToolRequestParams, caller: CallerRequest): Promise<CallToolResult | InputRequiredResult | undefined> {
  const tool = await findKnownTool(child, params.name);
  if (!tool) return undefined;
  const result = await forwardToolCall(hub, child, tool, params, { era, request: caller });
  return isInputRequiredResult(result) ? result : era.presentResult(tool, result);
}
