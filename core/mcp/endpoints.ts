import type { AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { traceIdOf, type AccessRecord } from '../access-log.js';
import type { Child } from '../children/child.js';
import type { ChildChange } from '../children/watch.js';
import type { Hub } from '../hub.js';
import { AllowedHosts } from '../net/allowed-hosts.js';
import { observe, type McpRequestEvent } from '../observe.js';
import { admitClients } from './admission.js';
import { Cancellations } from './cancellations.js';
import { sdkExchange } from './sdk-exchange.js';
import { ChildEndpoint } from './child-endpoint.js';
import type { McpEndpoint } from './endpoint.js';
import { HubEndpoint } from './hub-endpoint.js';
import { acceptJsonRpcBodies } from './json-rpc-bodies.js';
import { requestIdOf, writeJson } from './json-rpc-message.js';
import { answerPlainCall, isPlainObject, plainCallOf } from './plain-call.js';
import { requestedRevision, RevisionGate } from './revision-gate.js';
import { servedRevisions } from './served-revision.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of an MCP request, once the authenticating plugin accepted it. */
    mcpAuth?: AuthInfo;
  }
}

/** An endpoint with its revisions' handlers, and its calls a caller may cancel apart. */
interface Served {
  endpoint: McpEndpoint;
  gate: RevisionGate;
  cancellations: Cancellations;
}

/**
 * `/hub` and `/<name>/mcp`: stateless Streamable HTTP on every revision a plugin serves,
 * in a context of their own where every answer is JSON-RPC. Before a body is read: the
 * Host and Origin checks (DNS rebinding), then the bearer check of whichever plugin
 * provides one, against the URL the request arrived on, and the client's limits
 * (admission.ts). Then the revision whose fast road takes the request answers it, or the
 * SDK handler of the revision that serves it.
 */
export function registerMcpEndpoints(app: FastifyInstance, hub: Hub): void {
  const revisions = servedRevisions(hub.revisions.values());
  if (revisions.length === 0) return;
  const allowed = new AllowedHosts(hub.settings);
  const served = new Map<string, Served>();

  const serving = (key: string, create: () => McpEndpoint): Served => {
    let existing = served.get(key);
    if (!existing) {
      const endpoint = create();
      const gate = new RevisionGate(endpoint, revisions);
      existing = { endpoint, gate, cancellations: new Cancellations() };
      served.set(key, existing);
      endpoint.child?.onChange((change) => publish(gate, change));
    }
    return existing;
  };

  const serve = async (request: FastifyRequest, reply: FastifyReply, served: Served, name: string): Promise<void> => {
    reply.hijack();
    if (request.access) describeRequest(request.access, name, served.endpoint, request);
    try {
      await observed(request, reply, served, name);
    } catch (error) {
      answerFailure(request, reply, error);
    }
  };

  const observed = async (request: FastifyRequest, reply: FastifyReply, served: Served, name: string): Promise<void> => {
    const plain = plainCallOf(revisions, request);
    if (!observe.mcpRequest.active && !observe.mcpRequestEnd.active) return carry(request, reply, served, plain);
    const event: McpRequestEvent = {
      hub: hub.identity,
      endpoint: name,
      method: request.method,
      body: request.body,
      revision: plain?.revision.revision ?? requestedRevision(request, revisions),
      clientId: request.mcpAuth?.clientId,
      http: request.raw,
      startedAt: performance.now(),
      status: undefined,
      access: request.access ?? undefined,
    };
    reply.raw.once('close', () => {
      event.status = reply.raw.statusCode;
      observe.mcpRequestEnd.publish(event);
    });
    return observe.mcpRequest.run(event, () => carry(request, reply, served, plain));
  };

  const carry = async (request: FastifyRequest, reply: FastifyReply, served: Served, plain: ReturnType<typeof plainCallOf>): Promise<void> => {
    const { endpoint, gate } = served;
    const access = request.access ?? undefined;
    // Long-lived streams are ended at shutdown, not waited for.
    if (!revisions.some((revision) => revision.opensStream(request.body))) hub.drain.track(reply.raw);
    const revision = plain ? plain.revision : gate.revisionFor(request);
    if (access) access.revision = revision?.revision;
    // On a revision whose cancellations arrive apart, calls are kept by caller to be found by them.
    const caller = revision?.cancelledRequest ? callerOf(request) : undefined;
    const cancellations = caller === undefined ? undefined : { registry: served.cancellations, caller };
    if (plain) return answerPlainCall(endpoint, plain.revision, plain.call, reply.raw, request.mcpAuth, access, cancellations);
    const uris = endpoint.child && revision ? revision.listenedResources(request.body) : [];
    if (endpoint.child && uris.length > 0) reply.raw.once('close', watchWhileOpen(endpoint.child, uris));
    if (caller === undefined || !revision?.cancelledRequest) return gate.serve(revision, request, request.raw, reply.raw, request.mcpAuth, sdkExchange(access));
    const cancelled = revision.cancelledRequest(request.body);
    if (cancelled !== undefined) served.cancellations.cancel(caller, cancelled, 'the caller cancelled the request');
    const id = typeof (request.body as { method?: unknown } | null)?.method === 'string' ? requestIdOf(request.body) : null;
    if (id === null) return gate.serve(revision, request, request.raw, reply.raw, request.mcpAuth, sdkExchange(access));
    const call = new AbortController();
    served.cancellations.add(caller, id, call);
    try {
      await gate.serve(revision, request, request.raw, reply.raw, request.mcpAuth, sdkExchange(access, call.signal));
    } finally {
      served.cancellations.remove(caller, id, call);
    }
  };

  void app.register(async (mcp) => {
    acceptJsonRpcBodies(mcp);
    // Checked below, after the drain, to answer in JSON-RPC.
    mcp.addHook('onRoute', (route) => void (route.config = { ...route.config, ownHostCheck: true }));
    mcp.addHook('onRequest', async (request, reply) => {
      if (hub.drain.draining) {
        return reply
          .code(503)
          .header('retry-after', '1')
          .header('connection', 'close')
          .send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'the hub is shutting down; send the request again once it is back (or to another replica)' } });
      }
      const host = allowed.host(request.headers.host);
      if (!host || !allowed.origin(request.headers.origin)) return reply.code(403).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: host ? 'Forbidden origin' : 'Forbidden host' } });
      const authenticator = hub.authenticator.value;
      if (!authenticator) return undefined;
      const { server } = request.params as { server?: string };
      const auth = await authenticator.authenticate(request, reply, `${hub.settings.baseUrl}${server === undefined ? '/hub' : `/${server}/mcp`}`);
      if (!auth) return reply;
      request.mcpAuth = auth;
      return undefined;
    });
    admitClients(mcp, hub, revisions);
    // Without a meta-tool /hub would list nothing (see core/served-surface.ts).
    if (hub.metaTools.values().length > 0) mcp.all('/hub', async (request, reply) => serve(request, reply, serving('/hub', () => new HubEndpoint(hub)), 'hub'));
    mcp.all<{ Params: { server: string } }>('/:server/mcp', async (request, reply) => {
      const child = hub.children.get(request.params.server);
      if (!child) return reply.code(404).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `no server named "${request.params.server}" is configured` } });
      return serve(request, reply, serving(child.name, () => new ChildEndpoint(hub, child)), child.name);
    });
  });
  // A server a reload removed or replaced must not be served from its old endpoint.
  hub.children.onRemoved((name) => {
    const removed = served.get(name);
    served.delete(name);
    void removed?.gate.close();
  });
  const closeAll = async () => {
    await Promise.allSettled([...served.values()].map(({ gate }) => gate.close()));
  };
  // Subscription streams never end on their own: they close once the drain is over.
  hub.drain.onDrained(closeAll);
  app.addHook('onClose', closeAll);
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

/**
 * A request the hub itself failed on (a bug, a plugin's throw): the reply is hijacked, so
 * without an answer here the caller would wait forever. The error is logged; the caller
 * gets a JSON-RPC internal error, or a closed connection when the answer had begun.
 */
function answerFailure(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  request.log.error({ err: error }, 'the hub failed on an MCP request');
  const response = reply.raw;
  if (response.headersSent) {
    response.destroy();
    return;
  }
  writeJson(response, 500, { jsonrpc: '2.0', id: requestIdOf(request.body), error: { code: -32603, message: 'Internal error' } });
}
