import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';
import t from 'tap';
import { childHttp } from '../../../plugins/lifecycle-remote/child-http.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { waitFor } from '../../core/children/helpers.js';

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\n{}';

t.test('a POST on a kept-alive connection the server dropped is never sent again (a tool must not run twice)', async (t) => {
  let connections = 0;
  let requests = 0;
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    connections += 1;
    const connection = connections;
    sockets.push(socket);
    let answered = 0;
    socket.on('data', () => {
      requests += 1;
      // The first connection answers once, then drops the next request unanswered, as a server closing an idle connection does.
      if (connection === 1 && answered === 1) return void socket.destroy();
      answered += 1;
      socket.write(OK);
    });
  });
  t.teardown(() => sockets.forEach((socket) => socket.destroy()));
  const port = await listenOnLoopback(t, server);
  const connectionsOfChild = childHttp();
  t.teardown(() => connectionsOfChild.close());
  const url = `http://127.0.0.1:${port}/mcp`;
  const first = await connectionsOfChild.fetch(url, { method: 'POST', body: '{}' });
  t.equal(first.status, 200);
  await first.text();
  // Once the connection is back in the pool (free), the next call takes it.
  const pool = () => (connectionsOfChild.dispatcher as unknown as { stats: Record<string, { free: number }> }).stats[`http://127.0.0.1:${port}`];
  await waitFor('the connection to be free again', () => pool()?.free === 1);
  await t.rejects(connectionsOfChild.fetch(url, { method: 'POST', body: '{}' }), 'the dropped call fails');
  t.equal(requests, 2, 'and was sent once');
  t.equal(connections, 1, 'on no second connection');
});

t.test('a kept-alive connection carries a call that is silent for longer than the idle limit', async (t) => {
  const server = createHttpServer((request, response) => {
    request.resume();
    setTimeout(() => response.end('{"late":true}'), 4_500);
  });
  const port = await listenOnLoopback(t, server);
  const connectionsOfChild = childHttp();
  t.teardown(() => connectionsOfChild.close());
  const response = await connectionsOfChild.fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
  t.same(await response.json(), { late: true }, 'the idle limit closes unused connections only');
});

t.test('an event-stream answer is passed on as it arrives; other answers are bounded', async (t) => {
  const server = createHttpServer((request, response) => {
    if (request.url === '/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      return;
    }
    response.end('x'.repeat(11 * 1024 * 1024));
  });
  const port = await listenOnLoopback(t, server);
  const connectionsOfChild = childHttp();
  t.teardown(() => connectionsOfChild.close());
  const events = await connectionsOfChild.fetch(`http://127.0.0.1:${port}/events`);
  const reader = (events.body as ReadableStream<Uint8Array>).getReader();
  t.equal(new TextDecoder().decode((await reader.read()).value), 'data: first\n\n', 'the first event arrives while the stream stays open');
  await reader.cancel();
  await t.rejects(connectionsOfChild.fetch(`http://127.0.0.1:${port}/big`), { code: 'HUB_ERR_ANSWER_TOO_LARGE' }, 'an answer over the message limit is refused');
});
