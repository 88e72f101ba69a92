import {
  createMcpHandler,
  isLegacyRequest,
  legacyStatelessFallback,
  PROTOCOL_VERSION_META_KEY,
  type JSONRPCErrorResponse,
  type McpHandlerRequestOptions,
  type RequestId,
  type McpHttpHandler,
  type Server,
} from '@modelcontextprotocol/server';
import type { McpEra } from '../hub.js';

/** The SDK's code for "this endpoint does not serve the requested revision". */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export interface GatedHandler {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Publishes change events to open `subscriptions/listen` streams (modern revision only). */
  notify: McpHttpHandler['notify'] | undefined;
  close(): Promise<void>;
}

/**
 * One endpoint's HTTP handler over the revisions the enabled plugins serve. The SDK
 * classifies each request; a revision whose plugin is disabled is refused with the
 * unsupported-protocol-version error naming what is served.
 */
export function createGatedHandler(build: (era: McpEra) => Server | Promise<Server>, modern: McpEra | undefined, legacy: McpEra | undefined): GatedHandler {
  if (modern) {
    const handler = createMcpHandler(({ era }) => build(era === 'modern' || !legacy ? modern : legacy), { legacy: legacy ? 'stateless' : 'reject' });
    return { fetch: handler.fetch, notify: handler.notify, close: handler.close };
  }
  if (!legacy) throw new Error('an MCP endpoint needs at least one revision plugin');
  const fallback = legacyStatelessFallback(() => build(legacy));
  return {
    async fetch(request, options) {
      if (await isLegacyRequest(request.clone(), options?.parsedBody)) return fallback(request, options);
      return refuseModern(options?.parsedBody, legacy.revision);
    },
    notify: undefined,
    async close() {},
  };
}

function refuseModern(body: unknown, served: string): Response {
  return Response.json(unsupportedRevisionAnswer(body, served), { status: 400 });
}

/** A 2026-07-28 request: the discovery probe, or any request carrying the per-request envelope. */
export function isModernRequest(message: unknown): boolean {
  const request = typeof message === 'object' && message !== null ? (message as { method?: unknown; params?: { _meta?: Record<string, unknown> } }) : {};
  return typeof request.method === 'string' && (request.method === 'server/discover' || request.params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined);
}

/** The unsupported-protocol-version error for a request on a revision this hub does not serve. */
export function unsupportedRevisionAnswer(body: unknown, served: string): JSONRPCErrorResponse {
  const message = typeof body === 'object' && body !== null ? (body as { id?: RequestId; params?: { _meta?: Record<string, unknown> } }) : {};
  const requested = message.params?._meta?.[PROTOCOL_VERSION_META_KEY];
  return {
    jsonrpc: '2.0',
    id: message.id ?? null,
    error: {
      code: UNSUPPORTED_PROTOCOL_VERSION,
      message: `Unsupported protocol version: ${typeof requested === 'string' ? requested : 'unknown'}`,
      data: { supported: [served], requested },
    },
  } as JSONRPCErrorResponse;
}
