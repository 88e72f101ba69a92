import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpServerFactory } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { HUB_ERROR_CODES, HubError } from '../../errors.js';
import type { ChildConnection, ChildType, ConnectContext } from '../child-type.js';
import { connectClient } from './connect-client.js';

export const IN_PROCESS_TYPE = 'in-process';

/** Children that live in the hub process (the map tools, tests, embedders), each reached by `connectInProcess`. */
export function createInProcessChildType(clientInfo: { name: string; version: string }): ChildType & {
  provide(name: string, factory: McpServerFactory): void;
} {
  const factories = new Map<string, McpServerFactory>();
  return {
    type: IN_PROCESS_TYPE,
    entrySchema: Type.Object({}, { additionalProperties: true }),
    alwaysRunning: () => true,
    // The tool list is always at hand in this process; nothing to keep on disk.
    snapshots: false,
    provide(name, factory) {
      factories.set(name, factory);
    },
    async connect(_entry, context) {
      const factory = factories.get(context.name);
      if (!factory) throw new HubError(HUB_ERROR_CODES.IN_PROCESS_UNKNOWN, `no in-process server is provided under the name "${context.name}"`);
      return connectInProcess(factory, context, clientInfo);
    },
  };
}

/**
 * A connection to an SDK server that lives in this process: served by the SDK's own HTTP
 * handler and reached through its `fetch` function, so no socket is opened and both MCP
 * revisions behave exactly as for a remote child. Closing it closes the handler too.
 */
export async function connectInProcess(factory: McpServerFactory, context: ConnectContext, clientInfo: { name: string; version: string }): Promise<ChildConnection> {
  const handler = createMcpHandler(factory);
  const transport = new StreamableHTTPClientTransport(new URL(`http://in-process.invalid/${encodeURIComponent(context.name)}/mcp`), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  const connection = await connectClient(transport, context, { clientInfo, negotiation: 'auto' }).catch(async (error: unknown) => {
    await handler.close();
    throw error;
  });
  return {
    client: connection.client,
    async close() {
      await connection.close();
      await handler.close();
    },
  };
}
