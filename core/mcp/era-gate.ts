import {
  createMcpHandler,
  isLegacyRequest,
  legacyStatelessFallback,
  PROTOCOL_VERSION_META_KEY,
  type McpHandlerRequestOptions,
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
  const message = typeof body === 'object' && body !== null ? (body as { id?: unknown; params?: { _meta?: Record<string, unknown> } }) : {};
  const requested = message.params?._meta?.[PROTOCOL_VERSION_META_KEY];
  return Response.json(
    {
      jsonrpc: '2.0',
      id: message.id ?? null,
      error: {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: `Unsupported protocol version: ${typeof requested === 'string' ? requested : 'unknown'}`,
        data: { supported: [served], requested },
      },
    },
    { status: 400 },
  );
}
