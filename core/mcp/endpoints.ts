import { toNodeHandler } from '@modelcontextprotocol/node';
import { localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader, type AuthInfo } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Child } from '../children/child.js';
import type { ChildChange } from '../children/watch.js';
import type { Hub } from '../hub.js';
import { observe, type McpRequestEvent } from '../observe.js';
import { admitClients, isListen } from './admission.js';
import { ChildEndpoint } from './child-endpoint.js';
import type { McpEndpoint } from './endpoint.js';
import { HubEndpoint } from './hub-endpoint.js';
import { acceptJsonRpcBodies } from './json-rpc-bodies.js';
import { answerPlainCall, plainCallOf } from './plain-call.js';
import { createRevisionGate, type RevisionGate } from './revision-gate.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of an MCP request, once the authenticating plugin accepted it. */
    mcpAuth?: AuthInfo;
  }
}

/** An endpoint with the SDK's handler for it, behind the revision gate. */
interface Served {
  endpoint: McpEndpoint;
  gate: RevisionGate;
  node: ReturnType<typeof toNodeHandler>;
}

/**
 * `/hub` and `/<name>/mcp`: stateless Streamable HTTP on every revision a plugin serves,
 * in a context of their own where every answer is JSON-RPC. Before a body is read: the
 * Host and Origin checks (DNS rebinding), then the bearer check of whichever plugin
 * provides one, against the URL the request arrived on, and the client's limits
 * (admission.ts). Then the era whose fast road takes the request answers it, or the
 * SDK's handler behind the revision gate.
 */
export function registerMcpEndpoints(app: FastifyInstance, hub: Hub): void {
  const eras = hub.eras.values();
  if (eras.length === 0) return;
  // Read per request: without BASE_URL the base URL is known only once the hub listens.
  let allowed: { baseUrl: string; hosts: string[]; origins: string[] } | undefined;
  const allowedFor = (baseUrl: string) => {
    if (allowed?.baseUrl !== baseUrl) {
      const baseHost = bracketed(new URL(baseUrl).hostname);
      allowed = { baseUrl, hosts: [...localhostAllowedHostnames(), baseHost, bracketed(hub.settings.host)], origins: [...localhostAllowedOrigins(), baseHost] };
    }
    return allowed;
  };
  const served = new Map<string, Served>();

  const serving = (key: string, create: () => McpEndpoint): Served => {
    let existing = served.get(key);
    if (!existing) {
      const endpoint = create();
      const gate = createRevisionGate((era) => endpoint.server(era), eras);
      existing = { endpoint, gate, node: toNodeHandler(gate) };
      served.set(key, existing);
      endpoint.child?.onChange((change) => publish(gate, change));
    }
    return existing;
  };

  const serve = async (request: FastifyRequest, reply: FastifyReply, served: Served, name: string): Promise<void> => {
    reply.hijack();
    const plain = plainCallOf(eras, request);
    if (!observe.mcpRequest.active) return carry(request, reply, served, plain);
    const event: McpRequestEvent = { hub, endpoint: name, body: request.body, revision: plain?.era.revision ?? namedRevision(request), clientId: request.mcpAuth?.clientId, status: undefined };
    reply.raw.once('close', () => {
      event.status = reply.raw.statusCode;
      observe.mcpRequestEnd.publish(event);
    });
    return observe.mcpRequest.run(event, () => carry(request, reply, served, plain));
  };

  const carry = async (request: FastifyRequest, reply: FastifyReply, { endpoint, node }: Served, plain: ReturnType<typeof plainCallOf>): Promise<void> => {
    // Long-lived streams are ended at shutdown, not waited for.
    if (!isListen(request.body)) hub.drain.track(reply.raw);
    if (plain && (await answerPlainCall(endpoint, plain.era, plain.call, reply.raw, request.mcpAuth))) return;
    const uris = endpoint.child ? eras.flatMap((era) => era.listenedResources(request.body)) : [];
    if (endpoint.child && uris.length > 0) reply.raw.once('close', watchWhileOpen(endpoint.child, uris));
    await node(Object.assign(request.raw, { auth: request.mcpAuth }), reply.raw, request.body);
  };

  void app.register(async (mcp) => {
    acceptJsonRpcBodies(mcp);
    mcp.addHook('onRequest', async (request, reply) => {
      if (hub.drain.draining) {
        return reply
          .code(503)
          .header('retry-after', '1')
          .header('connection', 'close')
          .send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'the hub is shutting down; send the request again once it is back (or to another replica)' } });
      }
      const { hosts, origins } = allowedFor(hub.settings.baseUrl);
      const host = validateHostHeader(request.headers.host, hosts);
      const origin = validateOriginHeader(request.headers.origin, origins);
      if (!host.ok || !origin.ok) return reply.code(403).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: host.ok ? 'Forbidden origin' : 'Forbidden host' } });
      if (!hub.authenticator) return undefined;
      const { server } = request.params as { server?: string };
      const auth = await hub.authenticator.authenticate(request, reply, `${hub.settings.baseUrl}${server === undefined ? '/hub' : `/${server}/mcp`}`);
      if (!auth) return reply;
      request.mcpAuth = auth;
      return undefined;
    });
    admitClients(mcp, hub);
    mcp.all('/hub', async (request, reply) => serve(request, reply, serving('/hub', () => new HubEndpoint(hub)), 'hub'));
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

/** Subscribers hear what the child reports; the SDK filters per stream. */
function publish(gate: RevisionGate, change: ChildChange): void {
  const notify = gate.notify;
  if (change.kind === 'resource') notify.resourceUpdated(change.uri);
  else if (change.kind === 'tools') notify.toolsChanged();
  else if (change.kind === 'prompts') notify.promptsChanged();
  else notify.resourcesChanged();
}

/** Watches the URIs for as long as the listen stream is open, waking the child to ask it. */
function watchWhileOpen(child: Child, uris: string[]): () => void {
  const releases = [...new Set(uris)].map((uri) => child.watchResource(uri));
  // Only a child that can watch (or whose capabilities were never seen) is worth waking.
  if (child.capabilities === undefined || child.capabilities.resources?.subscribe) void child.ensureUp().catch(() => undefined);
  return () => releases.forEach((release) => release());
}

/** The revision a request names: its header, or the one `initialize` asks for. */
function namedRevision(request: FastifyRequest): string | undefined {
  const header = request.headers['mcp-protocol-version'];
  if (typeof header === 'string') return header;
  const body = request.body as { method?: unknown; params?: { protocolVersion?: unknown } } | null;
  const asked = body?.method === 'initialize' ? body.params?.protocolVersion : undefined;
  return typeof asked === 'string' ? asked : undefined;
}

function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
