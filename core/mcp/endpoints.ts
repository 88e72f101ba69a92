import { toNodeHandler } from '@modelcontextprotocol/node';
import { localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader, type AuthInfo, type Implementation, type Server } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Child } from '../children/child.js';
import type { ChildChange } from '../children/watch.js';
import type { Hub } from '../hub.js';
import { callChildTool, childIdentity, createChildServer } from './child-server.js';
import type { McpEra } from './era.js';
import { callHubTool, createHubServer, hubIdentity } from './hub-server.js';
import { acceptJsonRpcBodies } from './json-rpc-bodies.js';
import { answerPlainCall, plainCallOf, type PlainCallWork } from './plain-call.js';
import { createRevisionGate, type RevisionGate } from './revision-gate.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of an MCP request, once the authenticating plugin accepted it. */
    mcpAuth?: AuthInfo;
  }
}

interface Endpoint {
  gate: RevisionGate;
  node: ReturnType<typeof toNodeHandler>;
  identity(): Implementation;
  /** The endpoint's answer to a plain `tools/call` on a given revision. */
  work(era: McpEra): PlainCallWork;
  child?: Child;
}

/**
 * `/hub` and `/<name>/mcp`: stateless Streamable HTTP on every revision a plugin serves,
 * in a context of their own where every answer is JSON-RPC. Before a body is read: the
 * Host and Origin checks (DNS rebinding), then the bearer check of whichever plugin
 * provides one, against the URL the request arrived on. Then the era whose fast road
 * takes the request answers it, or the SDK's handler behind the revision gate.
 */
export function registerMcpEndpoints(app: FastifyInstance, hub: Hub): void {
  const eras = hub.eras.values();
  if (eras.length === 0) return;
  const baseHost = bracketed(new URL(hub.settings.baseUrl).hostname);
  const allowedHosts = [...localhostAllowedHostnames(), baseHost, bracketed(hub.settings.host)];
  const allowedOrigins = [...localhostAllowedOrigins(), baseHost];
  const endpoints = new Map<string, Endpoint>();

  const endpoint = (key: string, build: (era: McpEra) => Server | Promise<Server>, parts: Pick<Endpoint, 'identity' | 'work' | 'child'>): Endpoint => {
    let existing = endpoints.get(key);
    if (!existing) {
      const gate = createRevisionGate(build, eras);
      existing = { gate, node: toNodeHandler(gate), ...parts };
      endpoints.set(key, existing);
      parts.child?.onChange((change) => publish(gate, change));
    }
    return existing;
  };
  const hubEndpoint = (): Endpoint =>
    endpoint('/hub', (era) => createHubServer(hub, era), { identity: () => hubIdentity(hub), work: (era) => (params, caller) => callHubTool(hub, era, params, caller) });
  const childEndpoint = (child: Child): Endpoint =>
    endpoint(child.name, (era) => createChildServer(hub, child, era), {
      child,
      identity: () => childIdentity(hub, child),
      work: (era) => (params, caller) => callChildTool(hub, child, era, params, caller),
    });

  const serve = async (request: FastifyRequest, reply: FastifyReply, target: Endpoint): Promise<void> => {
    reply.hijack();
    const plain = plainCallOf(eras, request);
    if (plain && (await answerPlainCall(plain.era, plain.call, reply.raw, request.mcpAuth, target.identity, target.work(plain.era)))) return;
    const uris = target.child ? eras.flatMap((era) => era.listenedResources(request.body)) : [];
    if (target.child && uris.length > 0) reply.raw.once('close', watchWhileOpen(target.child, uris));
    await target.node(Object.assign(request.raw, { auth: request.mcpAuth }), reply.raw, request.body);
  };

  void app.register(async (mcp) => {
    acceptJsonRpcBodies(mcp);
    mcp.addHook('onRequest', async (request, reply) => {
      const host = validateHostHeader(request.headers.host, allowedHosts);
      const origin = validateOriginHeader(request.headers.origin, allowedOrigins);
      if (!host.ok || !origin.ok) return reply.code(403).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: host.ok ? 'Forbidden origin' : 'Forbidden host' } });
      if (!hub.authenticator) return undefined;
      const { server } = request.params as { server?: string };
      const auth = await hub.authenticator.authenticate(request, reply, `${hub.settings.baseUrl}${server === undefined ? '/hub' : `/${server}/mcp`}`);
      if (!auth) return reply;
      request.mcpAuth = auth;
      return undefined;
    });
    mcp.all('/hub', async (request, reply) => serve(request, reply, hubEndpoint()));
    mcp.all<{ Params: { server: string } }>('/:server/mcp', async (request, reply) => {
      const child = hub.children.get(request.params.server);
      if (!child) return reply.code(404).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: `no server named "${request.params.server}" is configured` } });
      return serve(request, reply, childEndpoint(child));
    });
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...endpoints.values()].map(({ gate }) => gate.close()));
  });
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

function bracketed(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
