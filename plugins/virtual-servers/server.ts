import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { Composition } from './compose.js';

/**
 * The MCP server behind a virtual server's connection: it lists the composed tools (so
 * the hub keeps them as it keeps any server's, with their count, `/hub` and list changes)
 * and never runs one. A call of a virtual server's tool is routed by the hub's pipeline to
 * the underlying server before it would reach this connection (`ChildType.routeTool`).
 */
export function virtualServerFactory(name: string, version: string, composition: () => Composition): () => Server {
  return () => {
    const server = new Server({ name, version }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler('tools/list', async () => ({ tools: composition().tools }));
    server.setRequestHandler('tools/call', async (request) => {
      throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `virtual server "${name}": tool "${request.params.name}" is called through the hub's endpoints only`);
    });
    return server;
  };
}
