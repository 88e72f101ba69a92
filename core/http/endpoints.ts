import type { AuthInfo, LoggingLevel } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { traceIdOf, type AccessRecord } from '../access-log.js';
import type { Child } from '../children/child.js';
import type { ChildChange } from '../children/watch.js';
import type { Hub } from '../hub.js';
import { AllowedHosts } from '../net/allowed-hosts.js';
import { onClose } from '../net/on-close.js';
import { observe, type McpRequestEvent } from '../observe.js';
import { admitClients } from './admission.js';
import { CallerLogLevels } from '../calls/log-levels.js';
import { Cancellations } from './cancellations.js';
import { sdkExchange } from './sdk-exchange.js';
import { ChildEndpoint } from './child-endpoint.js';
import type { McpEndpoint } from './endpoint.js';
import { HubEndpoint } from './hub-endpoint.js';
import { acceptJsonRpcBodies } from './json-rpc-bodies.js';
import { jsonRpcError, requestIdOf } from './json-rpc-message.js';
import { answerPlainCall, isPlainObject, plainCallOf } from './plain-call.js';
import { requestedRevision, RevisionGate } from '../revisions/revision-gate.js';
import { servedRevisions, type ServedRevision } from '../revisions/served-revision.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of an MCP request, once the authenticating plugin accepted it (decorated on the MCP routes' context; undefined on an open hub). */
    mcpAuth: AuthInfo | undefined;
  }
}

/** An endpoint with its revisions' handlers, and its calls a caller may cancel apart. */
interface Served {
  endpoint: McpEndpoint;
  gate: RevisionGate;
  cancellations: Cancellations;
  /** The log level each caller set, on a revision that keeps one (`keepsLogLevel`). */
  logLevels: CallerLogLevels;
}

/** A fast-road `tools/call` found for a request (see plain-call.ts), if one takes it. */
type PlainCallMatch = ReturnType<typeof plainCallOf>;

/**
 * `/hub` and `/<name>/mcp`: stateless Streamable HTTP on every revision a plugin serves,
 * in a context of their own where every answer is JSON-RPC (see `McpRoutes`).
 */
export function registerMcpEndpoints(app: FastifyInstance, hub: Hub): void {
  const revisions = servedRevisions(hub.revisions.values());
  if (revisions.length === 0) return;
  const routes = new McpRoutes(hub, revisions);
  void app.register(async (mcp) => routes.register(mcp));
  // A server a reload removed or replaced must not be served from its old endpoint.
  hub.children.onRemoved((name) => routes.forget(name));
  // Subscription streams never end on their own: they close once the drain is over.
  hub.drain.onDrained(() => routes.closeAll());
  app.addHook('onClose', () => routes.closeAll());
}

/**
 * The MCP routes, one step per method. Before a body is read (`guard`): the drain, the
 * Host and Origin checks (DNS rebinding), then the bearer check of whichever plugin
 * provides one, against the URL the request arrived on; then the client's limits
 * (admission.ts). A request is then described in the access record and observed
 * (`serve`), and carried (`carry`): by the revision whose fast road takes it (plain-call.ts),
 * or by the SDK handler of the revision that serves it (`carrySdk`). Only the SDK's road
 * hijacks the reply, where its answer may stream (RevisionGate.serve); a failure anywhere
 * goes through Fastify's error path, the context's handler (json-rpc-bodies.ts).
 */
class McpRoutes {
  readonly #served = new Map<string, Served>();
  readonly #allowed: AllowedHosts;

  constructor(
    private readonly hub: Hub,
    private readonly revisions: readonly ServedRevision[],
  ) {
    this.#allowed = new AllowedHosts(hub.settings);
  }

  register(mcp: FastifyInstance): void {
    const hub = this.hub;
    acceptJsonRpcBodies(mcp);
    // Checked in `guard`, after the drain, to answer in JSON-RPC.
    mcp.addHook('onRoute', (route) => void (route.config = { ...route.config, ownHostCheck: true }));
    // Declared up front so every request has the same shape (Fastify's decorators guide), set by `guard`.
    mcp.decorateRequest('mcpAuth', undefined);
    mcp.addHook('onRequest', (request, reply, done) => this.guard(request, reply, done));
    admitClients(mcp, hub, this.revisions);
    // Without a meta-tool /hub would list nothing (see core/served-surface.ts).
    if (hub.metaTools.values().length > 0) mcp.all('/hub', (request, reply) => this.serve(request, reply, this.#served.get('/hub') ?? this.#endpoint('/hub', new HubEndpoint(hub)), 'hub'));
    mcp.all<{ Params: { server: string } }>('/:server/mcp', (request, reply) => this.serveServer(request, reply));
  }

  /** The server's endpoint made when first asked for is served no more. */
  forget(name: string): void {
    const removed = this.#served.get(name);
    this.#served.delete(name);
    void removed?.gate.close();
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.#served.values()].map(({ gate }) => gate.close()));
  }

  /**
   * The drain, the Host and Origin checks, then the bearer check; a refusal is answered here,
   * before the body is read, and the request goes no further (`done` is not called, as
   * Fastify asks of a hook that answers). A hook with `done` rather than an async one: no
   * promise on a request whose bearer check needs no wait.
   */
  guard(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const hub = this.hub;
    if (hub.drain.draining) {
      void reply
        .code(503)
        .header('retry-after', '1')
        .header('connection', 'close')
        .send(jsonRpcError(null, -32000, 'the hub is shutting down; send the request again once it is back (or to another replica)'));
      return;
    }
    const host = this.#allowed.host(request.headers.host);
    if (!host || !this.#allowed.origin(request.headers.origin)) {
      void reply.code(403).send(jsonRpcError(null, -32000, host ? 'Forbidden origin' : 'Forbidden host'));
      return;
    }
    const authenticator = hub.authenticator.value;
    if (!authenticator) return done();
    const { server } = request.params as { server?: string };
    const auth = authenticator.authenticate(request, reply, `${hub.settings.baseUrl}${server === undefined ? '/hub' : `/${server}/mcp`}`);
    if (!isPromiseLike(auth)) return authenticated(request, auth, done);
    auth.then((caller) => authenticated(request, caller, done), done);
  }

  serveServer(request: FastifyRequest<{ Params: { server: string } }>, reply: FastifyReply): Promise<void> | FastifyReply {
    const hub = this.hub;
    const child = hub.children.get(request.params.server);
    if (!child) return reply.code(404).send(jsonRpcError(null, -32000, `no server named "${request.params.server}" is configured`));
    return this.serve(request, reply, this.#served.get(child.name) ?? this.#endpoint(child.name, new ChildEndpoint(hub, child)), child.name);
  }

  /** Describes the request in its access record, then carries it, observed when anyone observes MCP requests. */
  serve(request: FastifyRequest, reply: FastifyReply, served: Served, name: string): Promise<void> {
    if (request.access) describeRequest(request.access, name, served.endpoint, request);
    const plain = plainCallOf(this.revisions, request);
    if (!observe.mcpRequest.active && !observe.mcpRequestEnd.active) return this.carry(request, reply, served, plain);
    return this.#observed(request, reply, served, name, plain);
  }

  #observed(request: FastifyRequest, reply: FastifyReply, served: Served, name: string, plain: PlainCallMatch): Promise<void> {
    const event: McpRequestEvent = {
      hub: this.hub.identity,
      endpoint: name,
      method: request.method,
      body: request.body,
      revision: plain?.revision.revision ?? requestedRevision(request, this.revisions),
      clientId: request.mcpAuth?.clientId,
      http: request.raw,
      startedAt: performance.now(),
      status: undefined,
      access: request.access ?? undefined,
    };
    onClose(reply.raw, () => {
      event.status = reply.raw.statusCode;
      observe.mcpRequestEnd.publish(event);
    });
    return observe.mcpRequest.run(event, () => this.carry(request, reply, served, plain));
  }

  /**
   * The fast road when a revision's takes the request, else the SDK's; the revision is
   * recorded, and the answer tracked by the drain. Not async: each road's promise is handed
   * on as it is (a throw here reaches Fastify's error path as a rejection would).
   */
  carry(request: FastifyRequest, reply: FastifyReply, served: Served, plain: PlainCallMatch): Promise<void> {
    const access = request.access ?? undefined;
    // Long-lived streams are ended at shutdown, not waited for.
    if (!this.revisions.some((revision) => revision.opensStream(request.body))) this.hub.drain.track(reply.raw);
    const revision = plain ? plain.revision : served.gate.revisionFor(request);
    if (access) access.revision = revision?.revision;
    // On a revision whose cancellations arrive apart, calls are kept by caller to be found by them; so is a log level set.
    const caller = revision?.cancelledRequest || revision?.keepsLogLevel ? callerOf(request) : undefined;
    // A caller who set a log level hears the child's messages during its call: the SDK's road carries them.
    if (plain && !(caller !== undefined && plain.revision.keepsLogLevel && served.logLevels.get(caller) !== undefined))
      return answerPlainCall(served.endpoint, plain.revision, plain.call, reply.raw, request.mcpAuth, access, caller === undefined ? undefined : { registry: served.cancellations, caller });
    return this.carrySdk(request, reply, served, revision, caller);
  }

  /**
   * The SDK handler of `revision` answers: a listen keeps the child watching its resources
   * while open; on a revision whose cancellations arrive apart, a cancellation is applied
   * and a request kept where its cancellation can find it.
   */
  async carrySdk(request: FastifyRequest, reply: FastifyReply, served: Served, revision: ServedRevision | undefined, caller: string | undefined): Promise<void> {
    const { endpoint, gate, cancellations } = served;
    const access = request.access ?? undefined;
    const levels = served.logLevels;
    const logLevel = caller !== undefined && revision?.keepsLogLevel ? { get: () => levels.get(caller), set: (level: LoggingLevel) => levels.set(caller, level) } : undefined;
    const uris = endpoint.child && revision ? revision.listenedResources(request.body) : [];
    if (endpoint.child && uris.length > 0) onClose(reply.raw, watchWhileOpen(endpoint.child, uris));
    if (caller === undefined || !revision?.cancelledRequest) return gate.serve(revision, request, request.raw, reply, request.mcpAuth, sdkExchange(access, undefined, logLevel));
    const cancelled = revision.cancelledRequest(request.body);
    if (cancelled !== undefined) cancellations.cancel(caller, cancelled, 'the caller cancelled the request');
    const id = typeof (request.body as { method?: unknown } | null)?.method === 'string' ? requestIdOf(request.body) : null;
    if (id === null) return gate.serve(revision, request, request.raw, reply, request.mcpAuth, sdkExchange(access, undefined, logLevel));
    const call = new AbortController();
    cancellations.add(caller, id, call);
    try {
      await gate.serve(revision, request, request.raw, reply, request.mcpAuth, sdkExchange(access, call.signal, logLevel));
    } finally {
      cancellations.remove(caller, id, call);
    }
  }

  /** Serves `endpoint` under `key` from its first request on, with its gate; its subscribers hear the child's changes. */
  #endpoint(key: string, endpoint: McpEndpoint): Served {
    const gate = new RevisionGate(endpoint, this.revisions);
    const served: Served = { endpoint, gate, cancellations: new Cancellations(), logLevels: new CallerLogLevels() };
    this.#served.set(key, served);
    endpoint.child?.onChange((change) => publish(gate, change));
    return served;
  }
}

/** The request goes on as `auth`'s; without a caller, the authenticator has answered it already. */
function authenticated(request: FastifyRequest, auth: AuthInfo | undefined, done: HookHandlerDoneFunction): void {
  if (!auth) return;
  request.mcpAuth = auth;
  done();
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

/**
 * Who a caller is, for matching its cancellations: the client it authenticated as, else
 * (an open hub on loopback, where nothing else tells callers apart) its address.
 */
function callerOf(request: FastifyRequest): string {
  const clientId = request.mcpAuth?.clientId;
  return clientId === undefined ? `address ${request.ip}` : `client ${clientId}`;
}

/**
 * What the access record says of an MCP request before it is served: the endpoint, the
 * JSON-RPC method, the caller, the tool called (and, on `/<name>/mcp`, the server; a tool
 * call carried from `/hub` names its own, see core/calls/observation.ts) and the trace the caller
 * continues.
 */
function describeRequest(access: AccessRecord, name: string, endpoint: McpEndpoint, request: FastifyRequest): void {
  access.endpoint = name;
  access.client = request.mcpAuth?.clientId;
  const body = request.body;
  if (!isPlainObject(body)) return;
  if (typeof body.method === 'string') access.rpc = body.method;
  const params = body.params;
  if (!isPlainObject(params)) return;
  if (body.method === 'tools/call' && typeof params.name === 'string') {
    access.tool = params.name;
    access.server = endpoint.child?.name;
  }
  if (isPlainObject(params._meta)) access.traceId = traceIdOf(params._meta.traceparent);
}

/** Subscribers hear what the child reports; the SDK filters per stream. */
function publish(gate: RevisionGate, change: ChildChange): void {
  for (const notify of gate.notifiers) {
    if (change.kind === 'resource') notify.resourceUpdated(change.uri);
    else if (change.kind === 'tools') notify.toolsChanged();
    else if (change.kind === 'prompts') notify.promptsChanged();
    else notify.resourcesChanged();
  }
}

/** Watches the URIs for as long as the listen stream is open, waking the child to ask it. */
function watchWhileOpen(child: Child, uris: string[]): () => void {
  const releases = [...new Set(uris)].map((uri) => child.watchResource(uri));
  // Only a child that can watch (or whose capabilities were never seen) is worth waking.
  if (child.capabilities === undefined || child.capabilities.resources?.subscribe) void child.ensureUp().catch(() => undefined);
  return () => releases.forEach((release) => release());
}
