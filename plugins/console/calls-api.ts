import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { PluginHub } from '../../core/plugin/index.js';
import { TOOL_CALL_OUTCOMES } from '../../core/plugin/observe.js';
import { sendApiError } from '../../core/plugin/pages.js';
import { matches, type CallFilter, type CallRecord, type CallRing } from './call-ring.js';
import { CONSOLE_ERROR_CODES } from './errors.js';
import { API } from './servers-api.js';

/** Event streams one operator session may hold open at once (a few tabs); one more is refused. */
export const STREAMS_PER_SESSION = 4;
/**
 * The operator session's cookie (core/operator/sessions.ts): the key streams are counted
 * by. The plugin surface has no session id; the cookie's value is hashed, never kept.
 */
const SESSION_COOKIE = 'hub_session';

const CallsQuery = Type.Object(
  {
    server: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    caller: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    outcome: Type.Optional(
      Type.Union(
        [...TOOL_CALL_OUTCOMES, 'failed'].map((outcome) => Type.Literal(outcome)),
        { description: 'An outcome, or `failed`: every outcome but `ok`.' },
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    after: Type.Optional(Type.Integer({ minimum: 0, description: 'The stream: first the kept calls after this id (the last the page listed), as `Last-Event-ID` does on a reconnect.' })),
  },
  { additionalProperties: false },
);
type CallsQuery = Static<typeof CallsQuery>;

export interface CallsApiOptions {
  /** Seconds between the stream's heartbeat comments. */
  heartbeatSeconds: number;
}

/**
 * `GET /console/api/calls` (the last calls the ring keeps, filtered) and its event stream,
 * `GET /console/api/calls/stream` or the same URL with `Accept: text/event-stream`: a
 * `call` event per new call that matches the filter (from the one after `Last-Event-ID`
 * or `after`, when the page or the browser reconnects), and a comment every `heartbeatSeconds` so that no proxy
 * takes the quiet stream for a dead one. The stream stops following the calls the moment
 * the browser goes, and at most `STREAMS_PER_SESSION` are open per operator session.
 */
export function registerCallsApi(context: FastifyInstance, hub: PluginHub, ring: CallRing, options: CallsApiOptions): void {
  const routes = context.withTypeProvider<TypeBoxTypeProvider>();
  const onRequest = hub.operator.requireApiSession;
  const streamsBySession = new Map<string, number>();
  const open = new Set<() => void>();
  context.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  const schema = { querystring: CallsQuery };
  routes.get(`${API}/calls`, { config: { operatorApi: true }, onRequest, schema }, async (request, reply) => {
    if (wantsStream(request)) return stream(request, reply, request.query);
    return list(reply, request.query);
  });
  routes.get(`${API}/calls/stream`, { config: { operatorApi: true }, onRequest, schema }, async (request, reply) => stream(request, reply, request.query));

  function list(reply: FastifyReply, query: CallsQuery): FastifyReply {
    const calls = ring.list(filterOf(query), query.limit).reverse();
    return reply.header('cache-control', 'no-store').send({ kept: ring.capacity, streams: ring.followers, calls });
  }

  function stream(request: FastifyRequest, reply: FastifyReply, query: CallsQuery): FastifyReply | undefined {
    if (ring.capacity === 0) return sendApiError(reply, 409, CONSOLE_ERROR_CODES.CALLS_OFF, 'The console keeps no calls: its option callsKept is 0.');
    const session = sessionKey(request);
    const held = streamsBySession.get(session) ?? 0;
    if (held >= STREAMS_PER_SESSION) {
      return sendApiError(reply, 429, CONSOLE_ERROR_CODES.TOO_MANY_STREAMS, `This operator session has ${held} call streams open already (at most ${STREAMS_PER_SESSION}): close a console tab.`);
    }
    streamsBySession.set(session, held + 1);
    const filter = filterOf(query);
    const reconnected = Number(request.headers['last-event-id']);
    const lastSeen = Number.isSafeInteger(reconnected) && reconnected > 0 ? reconnected : query.after;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      // nginx buffers an answer unless told not to; a stream must go out as it is written.
      'x-accel-buffering': 'no',
      connection: 'close',
    });
    const send = (record: CallRecord): void => void raw.write(`id: ${record.id}\nevent: call\ndata: ${JSON.stringify(record)}\n\n`);
    raw.write(`retry: 3000\n\n`);
    if (lastSeen !== undefined) for (const record of ring.list(filter, undefined, lastSeen)) send(record);
    const unfollow = ring.follow((record) => {
      if (matches(record, filter)) send(record);
    });
    const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), options.heartbeatSeconds * 1000);
    heartbeat.unref();
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      unfollow();
      clearInterval(heartbeat);
      open.delete(end);
      const left = (streamsBySession.get(session) ?? 1) - 1;
      if (left > 0) streamsBySession.set(session, left);
      else streamsBySession.delete(session);
      if (!raw.writableEnded) raw.end();
      // The reply was hijacked: Node does not close its socket, which would otherwise stay open and hold the hub's close. A stream's last bytes matter to nobody.
      request.raw.socket.destroy();
    };
    open.add(end);
    raw.on('close', end);
    request.log.debug({ streams: held + 1 }, 'console: calls stream opened');
    return undefined;
  }
}

function wantsStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').split(',').some((type) => type.trim().split(';')[0] === 'text/event-stream');
}

function filterOf(query: CallsQuery): CallFilter {
  return { server: query.server, caller: query.caller, outcome: query.outcome };
}

function sessionKey(request: FastifyRequest): string {
  const cookies = (request as { cookies?: Record<string, string | undefined> }).cookies;
  return createHash('sha256')
    .update(cookies?.[SESSION_COOKIE] ?? '')
    .digest('hex');
}
