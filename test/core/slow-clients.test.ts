import { connect, type Socket } from 'node:net';
import t from 'tap';
import { ConnectionGuard } from '../../core/limits/connections.js';
import { connectClient } from '../helpers/clients.js';
import { openStore } from '../../core/store/index.js';
import { ApiTokens } from '../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../plugins/oauth-as/records.js';
import { startStandaloneHub } from '../helpers/hub.js';

/** Longest any of these tests waits for the hub to act; far above every timeout set below. */
const BOUND_MS = 20_000;

/** A standalone hub, and API tokens minted on its store as `hub-admin tokens mint` does. */
async function standalone(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const { url, port, dataPath } = await startStandaloneHub(t, env);
  const mint = async () => {
    const store = await openStore({ dataPath });
    try {
      return (await new ApiTokens(collections(store), url).mint('slow', 60)).token;
    } finally {
      await store.close();
    }
  };
  return { port, mint };
}

/** A socket to the hub and everything it receives; `closed` settles when the hub ends it. */
function rawConnection(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  let onHead: () => void = () => undefined;
  const head = new Promise<void>((resolve) => (onHead = resolve));
  socket.on('data', (chunk) => {
    received += chunk.toString();
    if (received.includes('\r\n\r\n')) onHead();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, connected, closed, received: () => received, head };
}

/** Resolves to what `promise` gave, or to 'bound' when the hub did nothing for BOUND_MS. */
function within<T>(promise: Promise<T>): Promise<T | 'bound'> {
  return Promise.race([promise, new Promise<'bound'>((resolve) => setTimeout(() => resolve('bound'), BOUND_MS).unref())]);
}

/** Whether the hub answered (a status line and headers) before closing or BOUND_MS. */
async function answered(connection: ReturnType<typeof rawConnection>): Promise<boolean> {
  await within(Promise.race([connection.head, connection.closed]));
  return connection.received().includes('\r\n\r\n');
}

const head = (port: number, headers: Record<string, string>) =>
  `POST /hub HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;

t.test('a request without a bearer is answered 401 before its body is read, and its connection closed', async (t) => {
  const { port } = await standalone(t);
  const connection = rawConnection(port);
  await connection.connected;
  connection.socket.write(`${head(port, { 'Content-Length': '100000' })}{"jsonrpc":`);
  t.ok(await answered(connection), 'answered while the body is still missing');
  t.match(connection.received(), /^HTTP\/1\.1 401 /);
  t.match(connection.received(), /www-authenticate: Bearer/i);
  t.not(await within(connection.closed), 'bound', 'the connection is closed: a trickling body holds nothing');
});

t.test('a body that trickles is cut at REQUEST_TIMEOUT_MS, headers that trickle too', async (t) => {
  const { port, mint } = await standalone(t, { REQUEST_TIMEOUT_MS: '1000' });
  const token = await mint();

  const body = rawConnection(port);
  await body.connected;
  body.socket.write(`${head(port, { 'Content-Length': '100000', Authorization: `Bearer ${token}` })}{"jsonrpc":`);
  const trickle = setInterval(() => body.socket.write(' '), 200);
  t.teardown(() => clearInterval(trickle));
  t.not(await within(body.closed), 'bound', 'the slow body is cut');
  clearInterval(trickle);
  t.match(body.received(), /^(HTTP\/1\.1 408 |)/, 'with 408 or nothing');

  const headers = rawConnection(port);
  await headers.connected;
  headers.socket.write(`POST /hub HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
  const drip = setInterval(() => headers.socket.write('X-Slow: 1\r\n'), 200);
  t.teardown(() => clearInterval(drip));
  t.not(await within(headers.closed), 'bound', 'slow headers are cut');
});

t.test('an idle kept-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS', async (t) => {
  const { port } = await standalone(t, { KEEP_ALIVE_TIMEOUT_MS: '300' });
  const connection = rawConnection(port);
  await connection.connected;
  connection.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  t.ok(await answered(connection));
  t.match(connection.received(), /^HTTP\/1\.1 200 /);
  t.not(await within(connection.closed), 'bound');
});

t.test('connections beyond MAX_CONNECTIONS are refused', async (t) => {
  const { port } = await standalone(t, { MAX_CONNECTIONS: '3' });
  const held = [rawConnection(port), rawConnection(port), rawConnection(port)];
  await Promise.all(held.map((connection) => connection.connected));
  // The server counts a connection once it accepted it: one request on each makes sure of that.
  for (const connection of held) {
    connection.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    t.ok(await answered(connection));
  }
  const extra = rawConnection(port);
  extra.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  t.not(await within(extra.closed), 'bound', 'the fourth connection is closed');
  t.equal(extra.received(), '', 'unanswered');

  held[0]?.socket.destroy();
  await held[0]?.closed;
  // The hub counts the closed connection down when it sees the close: try until it has.
  let freed = false;
  for (let attempt = 0; attempt < 100 && !freed; attempt++) {
    const next = rawConnection(port);
    next.socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    freed = await answered(next);
    next.socket.destroy();
    if (!freed) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.ok(freed, 'a slot freed is usable again');
  for (const connection of held) connection.socket.destroy();
});

t.test('one address holding 1,100 idle connections leaves room for every other client', async (t) => {
  // Long header timeouts, so that the idle connections stay for the whole test.
  const { port, mint } = await standalone(t, { HEADERS_TIMEOUT_MS: '300000', REQUEST_TIMEOUT_MS: '300000' });
  const token = await mint();
  const idle: Socket[] = [];
  t.teardown(() => idle.forEach((socket) => socket.destroy()));
  await Promise.all(
    Array.from({ length: 1100 }, () => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
      socket.on('error', () => undefined);
      idle.push(socket);
      return new Promise((resolve) => socket.once('connect', resolve).once('close', resolve));
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  for (let probe = 0; probe < 10; probe++) t.equal((await fetch(`${url}/health`)).status, 200, `another address's /health ${probe + 1}`);
  const client = await connectClient(t, `${url}/hub`, '2026-07-28', { authorization: `Bearer ${token}` });
  t.notOk((await client.callTool({ name: 'list_servers', arguments: {} })).isError, "and a token holder's MCP call");
});

/** A connection as the guard sees it: whether it was closed. */
class Fake {
  destroyed = false;
  destroy(): void {
    this.destroyed = true;
  }
}

t.test('the connection guard: per address, trusted proxies exempt, and who makes room when the process is full', async (t) => {
  let now = 0;
  const guard = new ConnectionGuard<Fake>({ maxConnections: 6, maxConnectionsPerAddress: 2, headersTimeoutMs: 10_000, trustedProxies: ['10.0.0.1'] }, () => now);
  const [a, b, c] = [new Fake(), new Fake(), new Fake()];
  t.ok(guard.admit(a, '203.0.113.1'));
  t.ok(guard.admit(b, '203.0.113.1'));
  t.notOk(guard.admit(c, '203.0.113.1'), 'a third from one address is refused');
  t.notOk(guard.admit(c, '::ffff:203.0.113.1'), 'also written IPv4-mapped');
  t.ok(guard.admit(new Fake(), '2001:db8:1:1::1'));
  t.ok(guard.admit(new Fake(), '2001:db8:1:1::2'));
  t.notOk(guard.admit(new Fake(), '2001:db8:1:1::3'), 'an IPv6 /64 is one address');
  const proxied = [new Fake(), new Fake()];
  for (const connection of proxied) t.ok(guard.admit(connection, '10.0.0.1'), 'a trusted proxy is exempt');
  t.equal(guard.size, 6, 'the process is full');

  // Busy and freshly used connections stay; one that sent nothing goes, the longest waiting first.
  for (const connection of proxied) {
    guard.requestStarted(connection);
    guard.requestFinished(connection);
  }
  guard.requestStarted(a);
  now = 5_000;
  const newcomer = new Fake();
  t.ok(guard.admit(newcomer, '198.51.100.1'), 'a newcomer gets in');
  t.equal(b.destroyed, true, 'in place of the connection that waited longest without sending a request');
  t.equal(a.destroyed, false, 'one with a request in flight stays');
  t.same(
    proxied.map((connection) => connection.destroyed),
    [false, false],
    'an idle kept-alive one within HEADERS_TIMEOUT_MS stays',
  );
  const again = new Fake();
  t.ok(guard.admit(again, '203.0.113.1'), 'the address has a place again');
  const third = new Fake();
  t.ok(guard.admit(third, '198.51.100.3'));
  t.equal(guard.size, 6);

  now = 5_001;
  guard.requestStarted(newcomer);
  for (const connection of [again, third]) {
    guard.requestStarted(connection);
    guard.requestFinished(connection);
  }
  const full = new Fake();
  t.notOk(guard.admit(full, '198.51.100.2'), 'when nobody should make room, the newcomer is closed');
  now = 20_000;
  t.ok(guard.admit(full, '198.51.100.2'), 'an idle kept-alive connection past HEADERS_TIMEOUT_MS does make room');
  t.equal(proxied.filter((connection) => connection.destroyed).length, 1);
  guard.closed(a);
  guard.closed(a);
  t.equal(guard.size, 5, 'a close is counted once');
});
