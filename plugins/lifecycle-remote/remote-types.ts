import { connect as connectSocket } from 'node:net';
import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Type, type Static } from 'typebox';
import { HUB_ERROR_CODES, HubError } from '../../core/plugin/index.js';
import { type ChildConnection, type ChildType, connectClient, type ServerEntry, type UpstreamAuth } from '../../core/plugin/child-type.js';
import { childHttp, type ChildHttp, type ChildHttpOptions } from './child-http.js';
import { createPlainToolCall } from './plain-tool-call.js';
import { fetchWithHeaders } from './headers.js';
import { SocketTransport } from './socket-transport.js';

const Headers = Type.Optional(Type.Record(Type.String(), Type.String()));
const RemoteEntry = Type.Object({ url: Type.String({ minLength: 1 }), headers: Headers }, { additionalProperties: true });
const UnixEntry = Type.Object({ path: Type.String({ minLength: 1, description: 'The unix socket to connect to.' }) }, { additionalProperties: true });
const TcpEntry = Type.Object(
  {
    host: Type.Optional(Type.String({ minLength: 1, description: 'Default 127.0.0.1.' })),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
  },
  { additionalProperties: true },
);

function entryUrl(url: string | undefined, name: string): URL {
  try {
    return new URL(url ?? '');
  } catch (error) {
    throw new HubError(HUB_ERROR_CODES.CONFIG_INVALID, `server "${name}": "${url}" is not a URL`, { cause: error });
  }
}

/**
 * The transport options of a remote child: its own kept-alive fetch, with the static
 * headers on every request and the plugin-lent auth when there is one.
 */
function transportOptions(entry: ServerEntry, name: string, upstreamAuth: () => UpstreamAuth | undefined, connections: ChildHttp) {
  const auth = upstreamAuth()?.forServer(name, entry);
  const fetch = fetchWithHeaders(entry.headers, auth?.wrapFetch ? auth.wrapFetch(connections.fetch) : connections.fetch);
  return { fetch, authProvider: auth?.authProvider };
}

/** Closes the child's kept-alive connections with it, or at once when connecting fails. */
async function closingConnections(connections: ChildHttp, connecting: Promise<ChildConnection>): Promise<ChildConnection> {
  try {
    const connection = await connecting;
    return {
      client: connection.client,
      async close() {
        await connection.close();
        await connections.close();
      },
    };
  } catch (error) {
    await connections.close();
    throw error;
  }
}

/**
 * The always-running remote types: `http` (Streamable HTTP) and `sse`, and `unix`/`tcp`
 * sockets speaking newline-delimited JSON-RPC. They connect at start-up, are reconnected
 * with back-off by the supervisor and never slept. `upstreamAuth` is read at each connect,
 * so the plugin that provides it may register after this one.
 */
export function createRemoteChildTypes(
  clientInfo: { name: string; version: string },
  upstreamAuth: () => UpstreamAuth | undefined = () => undefined,
  http: Pick<ChildHttpOptions, 'bodyTimeoutMs'> = {},
): ChildType[] {
  const alwaysRunning = (): boolean => true;
  const checkUrl = async (entry: { url?: string }) => {
    try {
      const url = new URL(entry.url ?? '');
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, detail: `"${entry.url}" is not an http(s) URL` };
      return { ok: true, detail: `${url.origin}${url.pathname} parses` };
    } catch {
      return { ok: false, detail: `"${entry.url}" is not a URL` };
    }
  };
  return [
    {
      type: 'http',
      entrySchema: RemoteEntry,
      alwaysRunning,
      check: checkUrl,
      async connect(entry, context) {
        const url = entryUrl(entry.url, context.name);
        const connections = await childHttp(http);
        const options = transportOptions(entry, context.name, upstreamAuth, connections);
        const connection = await closingConnections(connections, connectClient(new StreamableHTTPClientTransport(url, options), context, { clientInfo, negotiation: 'auto' }));
        const plainToolCall = createPlainToolCall({ url, http: connections, headers: entry.headers, authProvider: options.authProvider, client: connection.client });
        return plainToolCall ? { ...connection, plainToolCall } : connection;
      },
    },
    {
      type: 'sse',
      entrySchema: RemoteEntry,
      alwaysRunning,
      probes: false,
      check: checkUrl,
      async connect(entry, context) {
        const url = entryUrl(entry.url, context.name);
        const connections = await childHttp(http);
        const transport = new SSEClientTransport(url, transportOptions(entry, context.name, upstreamAuth, connections));
        // The HTTP+SSE transport carries only what the plain handshake finds; a probe would only cost a round trip.
        return closingConnections(connections, connectClient(transport, context, { clientInfo, negotiation: 'legacy', describeClose: () => 'the SSE stream closed' }));
      },
    },
    {
      type: 'unix',
      entrySchema: UnixEntry,
      alwaysRunning,
      connect(entry, context) {
        // The kernel checked the entry against UnixEntry before adding the server.
        const { path } = entry as Static<typeof UnixEntry>;
        return connectClient(new SocketTransport(connectSocket({ path })), context, {
          clientInfo,
          negotiation: 'auto',
          describeClose: () => `the socket ${path} closed`,
          plainToolCalls: true,
        });
      },
    },
    {
      type: 'tcp',
      entrySchema: TcpEntry,
      alwaysRunning,
      connect(entry, context) {
        const { host = '127.0.0.1', port } = entry as Static<typeof TcpEntry>;
        return connectClient(new SocketTransport(connectSocket({ host, port })), context, {
          clientInfo,
          negotiation: 'auto',
          describeClose: () => `the connection to ${host}:${port} closed`,
          plainToolCalls: true,
        });
      },
    },
  ];
}
