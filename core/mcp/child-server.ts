import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, SERVER_INFO_META_KEY, Server, type ServerContext } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { Hub, McpEra } from '../hub.js';
import { forwardToolCall } from './forward-call.js';
import { findKnownTool, knownTools } from './known-tools.js';

/**
 * The server behind `/<name>/mcp` for one request: a transparent proxy of tools,
 * resources, prompts and completion to one child, with the allow/deny filter applied and
 * the revision's differences left to its era. Listing reads the Child, never the wire.
 */
export function createChildServer(hub: Hub, child: Child, era: McpEra): Server {
  const known = child.capabilities;
  const server = new Server(
    { name: child.name, title: child.description, version: hub.version },
    { capabilities: era.capabilities(known), instructions: child.instructions },
  );

  server.setRequestHandler('tools/list', async () => ({ tools: (await knownTools(child)).map((tool) => era.presentTool(tool)) }));

  server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
    const tool = await findKnownTool(child, request.params.name);
    // A filtered tool gets the answer of one that never existed, before anything wakes.
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const result = await forwardToolCall(hub, child, request.params, { era, request: ctx });
    return isInputRequiredResult(result) ? result : era.presentResult(tool, result);
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

/**
 * A child's answer as the hub's: its own cache hints and `_meta` stay, but the server
 * identity in `_meta` is the endpoint's, stamped by the SDK, not the child's.
 */
function relayed<T extends { _meta?: Record<string, unknown> }>(result: T): T {
  if (!result._meta || !(SERVER_INFO_META_KEY in result._meta)) return result;
  const { [SERVER_INFO_META_KEY]: _childIdentity, ...meta } = result._meta;
  return { ...result, _meta: meta };
}
