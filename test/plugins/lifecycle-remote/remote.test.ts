import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import Fastify from 'fastify';
import t from 'tap';
import { Type } from 'typebox';
import type { ChildType } from '../../../core/children/child-type.js';
import type { Hub } from '../../../core/hub.js';
import { hub as kernel, onKernel } from '../../../core/kernel.js';
import { SocketTransport } from '../../../plugins/lifecycle-remote/socket-transport.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { FAST, startHub, tempDir, waitFor } from '../../core/children/helpers.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

function upstream(name: string): McpServer {
  const server = new McpServer({ name, title: `Upstream ${name}`, version: '1.0.0' });
  server.registerTool('whoami', { description: 'Says which upstream answered' }, async () => ({ content: [{ type: 'text', text: name }] }));
  return server;
}

/** A local Streamable HTTP MCP server that answers only with the expected bearer token. */
async function httpUpstream(t: Teardown, token: string): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  const handle = toNodeHandler(createMcpHandler(() => upstream('remote')));
  const server = createHttpServer((request, response) => {
    seen.push(request.headers.authorization ?? '');
    if (request.headers.authorization !== `Bearer ${token}`) {
      response.writeHead(401).end();
      return;
    }
    void handle(request, response);
  });
  return { url: `http://127.0.0.1:${await listenOnLoopback(t, server)}/mcp`, seen };
}

t.test('a remote http child with a static header reaches a server that checks it', async (t) => {
  const { url, seen } = await httpUpstream(t, 's3cret');
  const { hub, app } = await startHub(t, {
    config: {
      mcpServers: {
        remote: { type: 'http', url, headers: { Authorization: 'Bearer ${TOKEN}' } },
        wrong: { url, headers: { Authorization: 'Bearer nope' } },
      },
    },
    env: { TOKEN: 's3cret' },
    timings: { wakeBudgetMs: 10_000, backoffBaseMs: 200, backoffMaxMs: 400 },
  });
  const remote = hub.children.get('remote');
  const wrong = hub.children.get('wrong');
  if (!remote || !wrong) throw new Error('no child');
  t.ok(remote.alwaysRunning, 'remote children are always running');
  await waitFor('the remote child to connect at start', () => remote.status === 'up');
  t.equal(remote.revision, '2026-07-28', 'the probe found the 2026 revision');
  const result = await remote.withClient((client) => client.callTool({ name: 'whoami', arguments: {} }));
  t.same(result.content, [{ type: 'text', text: 'remote' }]);
  t.ok(seen.length > 0 && seen.filter((value) => value !== 'Bearer nope').every((value) => value === 'Bearer s3cret'), 'every request carried the header');
  await waitFor('the wrong child to fail', () => wrong.status === 'down' && wrong.lastError !== undefined);
  t.match(wrong.lastError, /401|nauthori/i);
  await t.rejects(remote.sleep(), /is always running$/);
  await app.close();
  t.equal(remote.status, 'stopped');
});

/** A newline-delimited JSON-RPC MCP server on a socket, one McpServer per connection. */
async function socketUpstream(t: Teardown, listen: (server: NetServer) => Promise<void>): Promise<{ server: NetServer; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    void upstream('socket').connect(new SocketTransport(socket));
  });
  await listen(server);
  t.teardown(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        for (const socket of sockets) socket.destroy();
      }),
  );
  return { server, sockets };
}

t.test('unix and tcp socket children speak newline-delimited JSON-RPC and reconnect', async (t) => {
  const directory = await tempDir(t);
  const path = join(directory, 'upstream.sock');
  await socketUpstream(t, (server) => new Promise((resolve) => server.listen(path, resolve)));
  const tcp = await socketUpstream(t, (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  const port = (tcp.server.address() as AddressInfo).port;
  const { hub } = await startHub(t, {
    config: { mcpServers: { viaUnix: { type: 'unix', path }, viaTcp: { type: 'tcp', port } } },
    timings: { backoffBaseMs: 100 },
  });
  for (const name of ['viaUnix', 'viaTcp']) {
    const child = hub.children.get(name);
    if (!child) throw new Error('no child');
    await waitFor(`${name} to connect`, () => child.status === 'up');
    const result = await child.withClient((client) => client.callTool({ name: 'whoami', arguments: {} }));
    t.same(result.content, [{ type: 'text', text: 'socket' }], `${name} answers`);
  }
  const viaTcp = hub.children.get('viaTcp');
  if (!viaTcp) throw new Error('no child');
  for (const socket of tcp.sockets) socket.destroy();
  await waitFor('the tcp child to notice', () => viaTcp.status !== 'up');
  t.match(viaTcp.lastError, /the connection to 127.0.0.1:\d+ closed/);
  await waitFor('the tcp child to reconnect', () => viaTcp.status === 'up');
  const result = await viaTcp.withClient((client) => client.callTool({ name: 'whoami', arguments: {} }));
  t.same(result.content, [{ type: 'text', text: 'socket' }], 'answers again after reconnecting');
});

t.test('a start that runs out of budget reports the last real failure, not the cut', async (t) => {
  let attempts = 0;
  const refusingThenSilent: ChildType = {
    type: 'refusing-then-silent',
    entrySchema: Type.Object({}),
    alwaysRunning: () => false,
    async connect(_entry, context) {
      attempts += 1;
      if (attempts === 1) throw new Error('HTTP 401: the upstream wants a token');
      // Later attempts never answer: the end of the wake budget cuts them.
      return new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason as Error)));
    },
  };
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  let hub: Hub | undefined;
  await app.register(kernel, {
    config: { mcpServers: { upstream: { type: 'refusing-then-silent' } } },
    env: { DATA_PATH: await tempDir(t) },
    settings: { dataPath: await tempDir(t) },
    children: { ...FAST, wakeBudgetMs: 1_000, backoffBaseMs: 50 },
    [onKernel]: (created) => {
      hub = created;
      created.childTypes.add('refusing-then-silent', refusingThenSilent, 'test');
    },
  });
  await app.ready();
  t.teardown(() => app.close());
  const child = hub?.children.get('upstream');
  if (!child) throw new Error('no child');
  await t.rejects(child.ensureUp(), /^server "upstream" did not start within 1 s: HTTP 401: the upstream wants a token; a server that needs longer .* set "startTimeoutMs" in its entry$/);
  t.ok(attempts >= 2, 'a second attempt ran into the end of the budget');
  t.match(child.lastError, /401/);
});
