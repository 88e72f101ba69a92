import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { onClose } from '../../../core/net/on-close.js';

// Issue 42: the hub's close listeners of a response share one on the response, and run as
// the emitter's own would: once, in the order given, with the response as `this`.

t.test("a response's close listeners run once each, in order, as the emitter's would", async (t) => {
  const ran: string[] = [];
  let closed: ServerResponse | undefined;
  const server = createServer((_request, response) => {
    onClose(response, function (this: ServerResponse) {
      ran.push(this === response ? 'first, on the response' : 'first, elsewhere');
    });
    onClose(response, () => {
      ran.push('second');
      onClose(response, () => ran.push('given while they run'));
    });
    onClose(response, () => ran.push('third'));
    response.once('close', () => {
      closed = response;
      ran.push("the emitter's own, given after");
    });
    response.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  t.equal(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'ok');
  while (!closed) await new Promise((resolve) => setImmediate(resolve));
  onClose(closed, () => ran.push('given once closed'));
  closed.emit('close');
  t.same(ran, ['first, on the response', 'second', 'third', "the emitter's own, given after"], 'in order, once, and none given too late');
});
