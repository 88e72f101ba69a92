import { ProtocolError, ProtocolErrorCode, Server, type ServerCapabilities } from '@modelcontextprotocol/server';
import type { Catalog } from './catalog.js';
import type { Composition } from './compose.js';
import type { VirtualEntry } from './entry.js';

/**
 * The MCP server behind a virtual server's connection: it lists the composed tools (so
 * the hub keeps them as it keeps any server's, with their count, `/hub` and list changes)
 * and never runs one. A call of a virtual server's tool is routed by the hub's pipeline to
 * the underlying server before it would reach this connection (`ChildType.routeTool`).
 * Prompts and resources, when the entry selects them, are listed and fetched here (the
 * hub relays those requests to its child as they come; see catalog.ts).
 */
export function virtualServerFactory(name: string, version: string, entry: VirtualEntry, composition: () => Composition, catalog: Catalog): () => Server {
  const capabilities: ServerCapabilities = {
    tools: { listChanged: true },
    ...(entry.prompts !== undefined && { prompts: {} }),
    ...(entry.resources !== undefined && { resources: {} }),
  };
  return () => {
    const server = new Server({ name, version }, { capabilities });
    server.setRequestHandler('tools/list', async () => ({ tools: composition().tools }));
    server.setRequestHandler('tools/call', async (request) => {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `virtual server "${name}": tool "${request.params.name}" is called through the hub's endpoints only`);
    });
    if (entry.prompts !== undefined) {
      server.setRequestHandler('prompts/list', async () => ({ prompts: [...(await catalog.prompts(name, entry)).values()].map((offered) => offered.prompt) }));
      server.setRequestHandler('prompts/get', async (request) => catalog.getPrompt(name, entry, request.params.name, request.params.arguments));
    }
    if (entry.resources !== undefined) {
      server.setRequestHandler('resources/list', async () => ({ resources: [...(await catalog.resources(name, entry)).values()].map((offered) => offered.resource) }));
      server.setRequestHandler('resources/read', async (request) => catalog.readResource(name, entry, request.params.uri));
    }
    return server;
  };
}
