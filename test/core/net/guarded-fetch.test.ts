import { createServer as createTcpServer } from 'node:net';
import t from 'tap';
import { allowedAddress, guardedFetch } from '../../../core/net/guarded-fetch.js';
import { listenOnLoopback } from '../../helpers/net.js';

/** Longest the test waits for the fetch to give up; far above the deadlines under test. */
const BOUND_MS = 20_000;

function within<T>(promise: Promise<T>): Promise<T | 'bound'> {
  return Promise.race([promise, new Promise<'bound'>((resolve) => setTimeout(() => resolve('bound'), BOUND_MS).unref())]);
}

/** A loopback server that writes `prefix` at once, then one byte of `drip` every 100 ms, for ever. */
async function trickling(t: { teardown(fn: () => unknown): void }, prefix: string, drip: string): Promise<string> {
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write(prefix);
      const timer = setInterval(() => socket.write(drip), 100);
      socket.once('close', () => clearInterval(timer));
    });
  });
  return `http://127.0.0.1:${await listenOnLoopback(t, server)}/doc`;
}

t.test('a server that answers one byte at a time hits the total deadline', async (t) => {
  const fetch = guardedFetch({ allowLoopback: true, maxBytes: 1024 * 1024, timeoutMs: 1000 });
  const body = await trickling(t, 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n', ' ');
  const slowBody = await within(
    fetch(body)
      .then((response) => response.text())
      .then(
        () => 'answered',
        (error: unknown) => error,
      ),
  );
  t.not(slowBody, 'bound', 'the fetch gave up');
  t.match(slowBody, { code: 'HUB_ERR_FETCH_LIMIT', message: /did not answer within 1 s/ });

  const headers = await trickling(t, 'HTTP/1.1 200 OK\r\n', 'X');
  const slowHeaders = await within(
    fetch(headers).then(
      () => 'answered',
      (error: unknown) => error,
    ),
  );
  t.match(slowHeaders, { code: 'HUB_ERR_FETCH_LIMIT', message: /did not answer within 1 s/ });
});

t.test('IPv6 forms that carry an IPv4 address are judged by that address, or refused', async (t) => {
  const refused = [
    '::a00:1', // IPv4-compatible 10.0.0.1
    '::7f00:1', // IPv4-compatible 127.0.0.1
    '::a9fe:a9fe', // IPv4-compatible 169.254.169.254
    '::5db8:d822', // IPv4-compatible, even of a public address: a deprecated form
    '::ffff:10.0.0.1',
    '::ffff:a00:1',
    '::ffff:0:a00:1', // RFC 6145
    '64:ff9b::a00:1', // NAT64 (RFC 6052)
    '2002:a00:1::1', // 6to4
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '::',
    '0.0.0.0',
  ];
  for (const address of refused) t.notOk(allowedAddress(address, false), address);
  t.notOk(allowedAddress('::a00:1', true), 'the dev switch allows loopback, not this');
  t.ok(allowedAddress('::ffff:93.184.216.34', false), 'an IPv4-mapped public address is that public address');
  t.ok(allowedAddress('2606:2800:220:1:248:1893:25c8:1946', false), 'a public IPv6 address');
  const fetch = guardedFetch({ allowLoopback: false, maxBytes: 1024, timeoutMs: 1000 });
  await t.rejects(fetch('https://[::a00:1]/doc'), { code: 'HUB_ERR_FETCH_BLOCKED' });
});
