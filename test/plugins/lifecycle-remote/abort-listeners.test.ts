import { getEventListeners } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import t from 'tap';
import { childHttp } from '../../../plugins/lifecycle-remote/child-http.js';
import { listenOnLoopback } from '../../helpers/net.js';

// The leak this guards against left a listener for three requests in four (3,700 after
// 5,000): a few hundred requests show any such leak by hundreds.
const CALLS = 500;

/** Runs `count` tasks, `width` at a time. */
async function inWaves(count: number, width: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

t.test('requests under one long-lived signal leave no abort listener on it once answered', async (t) => {
  const server = createHttpServer((request, response) => {
    request.resume();
    if (request.url === '/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: open\n\n');
      return;
    }
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  const port = await listenOnLoopback(t, server);
  const connections = await childHttp();
  t.teardown(() => connections.close());
  const transport = new AbortController();
  await inWaves(CALLS, 8, async () => {
    const response = await connections.fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: '{}', signal: transport.signal });
    await response.json();
  });
  t.equal(getEventListeners(transport.signal, 'abort').length, 0, `no listener is left after ${CALLS} answered requests`);

  const events = await connections.fetch(`http://127.0.0.1:${port}/events`, { signal: transport.signal });
  t.equal(getEventListeners(transport.signal, 'abort').length, 1, 'an open event stream keeps one');
  const reader = (events.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  transport.abort(new Error('transport closed'));
  await t.rejects(reader.read(), 'aborting the long-lived signal still ends the open stream');
  t.equal(getEventListeners(transport.signal, 'abort').length, 0, 'and its listener is gone');
});
