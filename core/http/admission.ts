import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Hub } from '../hub.js';
import { observe } from '../observe.js';
import { ADMITTED, type LimitRefusal, Occupancy } from '../limits/client-limits.js';
import { onClose } from '../net/on-close.js';
import { jsonRpcError, requestIdOf } from './json-rpc-message.js';
import type { ServedRevision } from '../revisions/served-revision.js';

/** The JSON-RPC code of a refusal by a limit: implementation-defined server error. */
const LIMIT_ERROR = -32000;
/** Refusals of who is asking (host, bearer, limits): the connection is not kept for the rest of their body. */
const REFUSALS = new Set([401, 403, 429]);

/**
 * The per-client limits of the MCP endpoints, as hooks of their context, after the bearer
 * check (`request.mcpAuth`), on the hub's `clientLimits` (which code mode's program calls
 * count against as well). Before the body is read: CLIENT_CALLS_PER_MINUTE, counted
 * through the store so that replicas share it. Once the body says what it is:
 * CLIENT_MAX_STREAMS for a request that opens a long-lived stream (its revision says
 * which), CLIENT_MAX_CONCURRENT for everything else, both counted in this process (they are this process's connections). Replicas on
 * one store hold a client to CLIENT_CALLS_PER_MINUTE together, each running past it by at
 * most 5% of it (see WindowCounter). A hub
 * without an authenticator (loopback only) identifies nobody and limits no one. A refusal
 * given before the body was read closes the connection, so that a refused client cannot
 * keep it by trickling the body.
 */
export function admitClients(mcp: FastifyInstance, hub: Hub, revisions: readonly ServedRevision[]): void {
  const { clientMaxStreams } = hub.settings;
  const limits = hub.clientLimits;
  const streams = new Occupancy();

  // Callback hooks, not async ones: a request's limits are almost always decided from
  // memory, and an async hook allocates its promise (and Fastify its handling) on every request.
  mcp.addHook('onRequest', (request, reply, done) => {
    const client = request.mcpAuth?.clientId;
    if (client === undefined) return done();
    const known = limits.countNow(client);
    if (known === ADMITTED) return done();
    if (known !== undefined) return void refuse(hub, reply, null, known);
    limits.count(client).then((refused) => (refused ? void refuse(hub, reply, null, refused) : done()), done);
  });

  mcp.addHook('preHandler', (request, reply, done) => {
    const client = request.mcpAuth?.clientId;
    if (client === undefined) return done();
    if (revisions.some((revision) => revision.opensStream(request.body))) {
      if (!streams.take(client, clientMaxStreams))
        return void refuse(hub, reply, requestIdOf(request.body), { message: `Too many open subscription streams: this client may hold ${clientMaxStreams}`, retryAfterSeconds: 1 });
      onClose(reply.raw, () => streams.release(client));
      return done();
    }
    const held = limits.hold(client);
    if (typeof held !== 'function') return void refuse(hub, reply, requestIdOf(request.body), held);
    onClose(reply.raw, held);
    done();
  });

  mcp.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete && REFUSALS.has(reply.statusCode)) reply.header('connection', 'close');
    done(null, payload);
  });
}

function refuse(hub: Hub, reply: FastifyReply, id: string | number | null, { message, retryAfterSeconds }: LimitRefusal): FastifyReply {
  if (observe.rateLimited.active) observe.rateLimited.publish({ hub: hub.identity });
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .send(jsonRpcError(id, LIMIT_ERROR, message, { retryAfterSeconds }));
}
