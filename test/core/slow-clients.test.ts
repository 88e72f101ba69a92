import { connect, type Socket } from 'node:net';
import t from 'tap';
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
