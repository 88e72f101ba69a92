import { Writable } from 'node:stream';
import Fastify, { type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import t, { type Test } from 'tap';
import { lazyRequestLog } from '../../core/lazy-request-log.js';

// Issue 42: Fastify's per-request child logger is made only when the request writes a
// line; what it writes is what the eager child would have written.

interface Served {
  lines: Array<Record<string, unknown>>;
  children: () => number;
  get(path: string): Promise<void>;
}

async function serve(t: Test, level: string, factory?: FastifyServerOptions['childLoggerFactory']): Promise<Served> {
  const lines: Array<Record<string, unknown>> = [];
  let children = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const loggerInstance = pino(
    {
      level,
      redact: { paths: ['secret.password'], censor: '[redacted]' },
      onChild: () => void (children += 1),
    },
    sink,
  );
  let next = 0;
  const app = Fastify({ loggerInstance, disableRequestLogging: true, genReqId: () => `req-${(next += 1)}`, ...(factory && { childLoggerFactory: factory }) });
  app.get('/quiet', async (request) => {
    request.log.debug({ detail: 1 }, 'below the level');
    return 'ok';
  });
  app.get('/verbose', { logLevel: 'debug' }, async (request) => {
    request.log.debug('at the route level');
    return 'ok';
  });
  app.get('/writes', async (request) => {
    request.log.debug('below the level');
    request.log.warn({ secret: { password: 'hunter2' } }, 'a warning');
    request.log.info('an info line with %s', 'an argument');
    request.log.child({ part: 'inner' }).info('from a child of the request');
    return 'ok';
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  // Only the requests' lines, not the listening one.
  lines.length = 0;
  return {
    lines,
    children: () => children,
    get: async (path) => {
      t.equal((await fetch(`${url}${path}`)).status, 200, `${path} answered`);
    },
  };
}

/** A line without its time (which differs between two runs). */
const timeless = ({ time: _time, ...line }: Record<string, unknown>) => line;

t.test('a request that writes nothing at its level makes no child logger', async (t) => {
  const eager = await serve(t, 'info');
  const lazy = await serve(t, 'info', lazyRequestLog);
  const [eagerBefore, lazyBefore] = [eager.children(), lazy.children()];
  for (let count = 0; count < 3; count += 1) {
    await eager.get('/quiet');
    await lazy.get('/quiet');
  }
  t.equal(eager.children() - eagerBefore, 3, "Fastify's own factory makes one per request");
  t.equal(lazy.children() - lazyBefore, 0, 'the lazy one makes none');
  t.same(lazy.lines, eager.lines, 'and nothing is written either way');
});

t.test('a request that writes gets the same lines as from the eager child, redaction and bindings included', async (t) => {
  const eager = await serve(t, 'info');
  const lazy = await serve(t, 'info', lazyRequestLog);
  await eager.get('/writes');
  await lazy.get('/writes');
  t.equal(lazy.lines.length, 3, 'the warning, the info line and the inner child line; not the debug one');
  t.same(lazy.lines.map(timeless), eager.lines.map(timeless), 'line for line the same');
  t.match(lazy.lines[0], { reqId: 'req-1', secret: { password: '[redacted]' }, msg: 'a warning' }, 'the request id bound, the secret redacted');
  t.match(lazy.lines[2], { reqId: 'req-1', part: 'inner' }, "a child of the request's logger keeps its binding");
});

t.test('at debug the lazy logger writes the debug lines too', async (t) => {
  const lazy = await serve(t, 'debug', lazyRequestLog);
  await lazy.get('/quiet');
  t.match(lazy.lines, [{ level: 20, reqId: 'req-1', detail: 1, msg: 'below the level' }]);
});

t.test("a route's own log level makes the child at once, as Fastify's factory does", async (t) => {
  const lazy = await serve(t, 'info', lazyRequestLog);
  const before = lazy.children();
  await lazy.get('/verbose');
  t.equal(lazy.children() - before, 1, 'one child, for the route level');
  t.match(lazy.lines, [{ level: 20, reqId: 'req-1', msg: 'at the route level' }], 'which writes at that level');
});
