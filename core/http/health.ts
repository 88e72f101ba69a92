import type { FastifyInstance } from 'fastify';
import type { Hub } from '../hub.js';
import { fromThisMachine, isLoopback } from '../limits/address.js';
import { errorMessage } from '../errors.js';

/** A store that has not answered within this long is not reachable, as far as a probe is concerned. */
const STORE_PING_TIMEOUT_MS = 2_000;

/**
 * The probes:
 * - `/livez`: the process serves HTTP (restart it when this fails);
 * - `/readyz`: plugins loaded, the work once the server listens done and the store
 *   reachable, else 503 (send no traffic);
 * - `/health`: the detailed picture, `ok` or `degraded` with every server's status and,
 *   for callers on loopback, why each troubled server is troubled (a reason can quote
 *   a child's stderr, which is not for the public). Without TRUSTED_PROXIES `request.ip`
 *   is the peer's, so a request that says it was forwarded is not taken for a local one.
 * None of them wakes a server.
 */
export function registerHealthRoutes(app: FastifyInstance, hub: Hub): void {
  let ready = false;
  app.addHook('onReady', async () => {
    ready = true;
  });
  app.addHook('preClose', async () => {
    ready = false;
  });

  // Probes come every few seconds: their access records are at debug.
  // They answer while the work the hub does once it listens runs, rather than wait for it (core/listen-work.ts).
  app.get('/livez', { config: { accessLog: 'debug', anyHost: true, whileStarting: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { accessLog: 'debug', anyHost: true, whileStarting: true } }, async (_request, reply) => {
    const problems: string[] = [];
    if (hub.drain.draining) problems.push('the hub is shutting down: calls in flight are finishing');
    else if (!ready) problems.push('the hub is starting or shutting down');
    const store = await pingStore(hub);
    if (store) problems.push(`the ${hub.store.kind} store is not reachable: ${store}`);
    const unfinished = hub.listenWork.unfinished;
    if (unfinished && !hub.drain.draining) problems.push(unfinished);
    if (problems.length > 0) return reply.code(503).send({ status: 'not ready', reasons: problems });
    return { status: 'ready' };
  });

  app.get('/health', async (request) => {
    const children = hub.children.all();
    const troubled = children.filter((child) => child.problem !== undefined);
    const local = hub.settings.trustedProxies.length > 0 ? isLoopback(request.ip) : fromThisMachine(request.raw);
    const reasons = local ? Object.fromEntries(troubled.map((child) => [child.name, child.problem])) : undefined;
    return {
      status: troubled.length === 0 ? 'ok' : 'degraded',
      servers: Object.fromEntries(children.map((child) => [child.name, child.status])),
      ...(reasons && troubled.length > 0 && { reasons }),
    };
  });
}

/** Undefined when the store answers in time, else why not. */
async function pingStore(hub: Hub): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${STORE_PING_TIMEOUT_MS / 1000} s`), STORE_PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([hub.store.ping().then(() => undefined, errorMessage), late]);
  } finally {
    clearTimeout(timer);
  }
}
