import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Hub } from '../hub.js';
import { observe } from '../observe.js';
import { msUntilBelow, slidingEstimate, WindowCounter } from '../limits/window-counter.js';
import { onClose } from '../net/on-close.js';
import { requestIdOf } from './json-rpc-message.js';
import type { ServedRevision } from './served-revision.js';

/** The JSON-RPC code of a refusal by a limit: implementation-defined server error. */
const LIMIT_ERROR = -32000;
/** Refusals of who is asking (host, bearer, limits): the connection is not kept for the rest of their body. */
const REFUSALS = new Set([401, 403, 429]);

/**
 * The per-client limits of the MCP endpoints, as hooks of their context, after the bearer
 * check (`request.mcpAuth`). Before the body is read: CLIENT_CALLS_PER_MINUTE, counted
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
  const { clientCallsPerMinute, clientMaxConcurrent, clientMaxStreams } = hub.settings;
  const calls = new WindowCounter(hub.store, 'mcp-calls', 60_000, { limit: clientCallsPerMinute, now: () => hub.now() });
  const inFlight = new Occupancy();
  const streams = new Occupancy();

  mcp.addHook('onRequest', async (request, reply) => {
    const client = request.mcpAuth?.clientId;
    if (client === undefined) return undefined;
    const count = await calls.count(client);
    if (slidingEstimate(count) >= clientCallsPerMinute) {
      const seconds = Math.max(1, Math.ceil(msUntilBelow(clientCallsPerMinute, count) / 1000));
      return refuse(hub, reply, null, seconds, `Rate limit exceeded: this client may make ${clientCallsPerMinute} MCP requests a minute; retry in ${seconds} s`);
    }
    calls.add(client);
    return undefined;
  });

  mcp.addHook('preHandler', async (request, reply) => {
    const client = request.mcpAuth?.clientId;
    if (client === undefined) return undefined;
    const [occupancy, limit, message] = revisions.some((revision) => revision.opensStream(request.body))
      ? [streams, clientMaxStreams, `Too many open subscription streams: this client may hold ${clientMaxStreams}`]
      : [inFlight, clientMaxConcurrent, `Too many concurrent requests: this client may have ${clientMaxConcurrent} in flight`];
    if (!occupancy.take(client, limit)) return refuse(hub, reply, requestIdOf(request.body), 1, message);
    onClose(reply.raw, () => occupancy.release(client));
    return undefined;
  });

  mcp.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete && REFUSALS.has(reply.statusCode)) reply.header('connection', 'close');
    return payload;
  });
}

/** Slots held per client in this process. */
class Occupancy {
  readonly #held = new Map<string, number>();

  take(client: string, limit: number): boolean {
    const held = this.#held.get(client) ?? 0;
    if (held >= limit) return false;
    this.#held.set(client, held + 1);
    return true;
  }

  release(client: string): void {
    const held = (this.#held.get(client) ?? 1) - 1;
    if (held > 0) this.#held.set(client, held);
    else this.#held.delete(client);
  }
}

function refuse(hub: Hub, reply: FastifyReply, id: string | number | null, retryAfterSeconds: number, message: string): FastifyReply {
  if (observe.rateLimited.active) observe.rateLimited.publish({ hub: hub.identity });
  return reply
    .code(429)
    .header('retry-after', String(retryAfterSeconds))
    .send({ jsonrpc: '2.0', id, error: { code: LIMIT_ERROR, message, data: { retryAfterSeconds } } });
}
