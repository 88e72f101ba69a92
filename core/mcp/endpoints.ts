import { toNodeHandler } from '@modelcontextprotocol/node';
import { localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Child } from '../children/child.js';
import type { ChildChange } from '../children/watch.js';
import type { Hub, McpEra } from '../hub.js';
import { callChildTool, createChildServer, endpointIdentity } from './child-server.js';
import { createGatedHandler, type GatedHandler } from './era-gate.js';
import { callHubTool, createHubServer, hubIdentity } from './hub-server.js';
import { answerPlainCall, plainCallRequest } from './plain-call.js';

interface Endpoint {
  gated: GatedHandler;
  node: ReturnType<typeof toNodeHandler>;
}

/**
 * `/hub` and `/<name>/mcp`: stateless Streamable HTTP on every revision a plugin serves.
 * In front of the SDK's handler: Host and Origin checks (DNS rebinding) and the bearer
 * check of whichever plugin provides one, against the URL the request arrived on.
 */
export function registerMcpEndpoints(app: FastifyInstance, hub: Hub): void {
  const eras = hub.eras.values();
  const modern = eras.find((era) => era.era === 'modern');
  const legacy = eras.find((era) => era.era === 'legacy');
  if (!modern && !legacy) return;

  const baseHost = bracketed(new URL(hub.settings.baseUrl).hostname);
  const allowedHosts = [...localhostAllowedHostnames(), baseHost, bracketed(hub.settings.host)];
  const allowedOrigins = [...localhostAllowedOrigins(), baseHost];
  const endpoints = new Map<string, Endpoint>();

  const endpoint = (key: string, build: (era: McpEra) => Server | Promise<Server>, onCreated?: (gated: GatedHandler) => void): Endpoint => {
    let existing = endpoints.get(key);
    if (!existing) {
      const gated = createGatedHandler(build, modern, legacy);
      existing = { gated, node: toNodeHandler(gated) };
      endpoints.set(key, existing);
      onCreated?.(gated);
    }
    return existing;
  };

  const serve = async (
    request: FastifyRequest,
    reply: FastifyReply,
    path: string,
    target: Endpoint,
    { onListen, plain }: { onListen?: (uris: string[]) => () => void; plain?: (auth: AuthInfo | undefined) => Promise<boolean> } = {},
  ): Promise<void> => {
    const host = validateHostHeader(request.headers.host, allowedHosts);
    const origin = validateOriginHeader(request.headers.origin, allowedOrigins);
    if (!host.ok || !origin.ok) {
      await reply.code(403).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: host.ok ? 'Forbidden origin' : 'Forbidden host' } });
      return;
    }
    const auth = hub.authenticator ? await hub.authenticator.authenticate(request, reply, `${hub.settings.baseUrl}${path}`) : undefined;
    if (hub.authenticator && !auth) return;
    reply.hijack();
    if (plain && (await plain(auth))) return;
    const uris = listenedResources(request.body);
    if (onListen && uris.length > 0) reply.raw.once('close', onListen(uris));
    await target.node(Object.assign(request.raw, { auth }), reply.raw, request.body);
  };

  app.all('/hub', async (request, reply) => {
    const call = plainCallRequest(request, modern, legacy);
    await serve(request, reply, '/hub', endpoint('/hub', (era) => createHubServer(hub, era)), {
      ...(call && { plain: (auth) => answerPlainCall(call, reply.raw, auth, () => hubIdentity(hub), (params, caller) => callHubTool(hub, call.era, params, caller)) }),
    });
  });

  app.all<{ Params: { server: string } }>('/:server/mcp', async (request, reply) => {
    const child = hub.children.get(request.params.server);
    if (!child) {
      await reply.code(404).send({ error: 'not_found', message: `no server named "${request.params.server}" is configured` });
      return;
    }
    const target = endpoint(
      child.name,
      (era) => createChildServer(hub, child, era),
      (gated) => child.onChange((change) => publish(gated, change)),
    );
    const call = plainCallRequest(request, modern, legacy);
    await serve(request, reply, `/${child.name}/mcp`, target, {
      onListen: (uris) => watchWhileOpen(child, uris),
      ...(call && { plain: (auth) => answerPlainCall(call, reply.raw, auth, () => endpointIdentity(hub, child), (params, caller) => callChildTool(hub, child, call.era, params, caller)) }),
    });
  });
  // A server a reload removed or replaced must not be served from its old endpoint.
  hub.children.onRemoved((name) => {
    const removed = endpoints.get(name);
    endpoints.delete(name);
    void removed?.gated.close();
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...endpoints.values()].map(({ gated }) => gated.close()));
  });
}

/** Subscribers on the modern revision hear what the child reports; the SDK filters per stream. */
function publish(gated: GatedHandler, change: ChildChange): void {
  const notify = gated.notify;
  if (!notify) return;
  if (change.kind === 'resource') notify.resourceUpdated(change.uri);
  else if (change.kind === 'tools') notify.toolsChanged();
  else if (change.kind === 'prompts') notify.promptsChanged();
  else notify.resourcesChanged();
}

/** The resource URIs a `subscriptions/listen` request names, so the child is asked to watch them. */
function listenedResources(body: unknown): string[] {
  const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (message?.method !== 'subscriptions/listen') return [];
  const uris = message.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
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
