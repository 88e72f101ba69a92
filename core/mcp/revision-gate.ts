import {
  createMcpHandler,
  PROTOCOL_VERSION_META_KEY,
  UnsupportedProtocolVersionError,
  type JSONRPCErrorResponse,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
  type RequestId,
  type Server,
} from '@modelcontextprotocol/server';
import type { McpEra } from './era.js';

export interface RevisionGate {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Publishes change events to open subscription streams (on revisions that have them). */
  notify: McpHttpHandler['notify'];
  close(): Promise<void>;
}

/**
 * One endpoint's HTTP handler over the revisions the enabled plugins serve: the SDK's
 * dual-era handler behind a gate where each registered era claims its requests. A request
 * no era claims (its revision's plugin is disabled) is refused with the SDK's
 * unsupported-protocol-version error naming what is served.
 */
export function createRevisionGate(build: (era: McpEra) => Server | Promise<Server>, eras: readonly McpEra[]): RevisionGate {
  const byClass = new Map(eras.map((era) => [era.era, era]));
  const handler = createMcpHandler(({ era }) => build(byClass.get(era) as McpEra), { legacy: 'stateless' });
  return {
    async fetch(request, options) {
      for (const era of eras) if (await era.claims(request, options?.parsedBody)) return handler.fetch(request, options);
      return Response.json(unsupportedRevisionAnswer(options?.parsedBody, request.headers.get('mcp-protocol-version'), eras), { status: 400 });
    },
    notify: handler.notify,
    close: () => handler.close(),
  };
}

/** The SDK's unsupported-protocol-version error for a request on a revision no plugin serves. */
export function unsupportedRevisionAnswer(body: unknown, headerVersion: string | null | undefined, eras: readonly McpEra[]): JSONRPCErrorResponse {
  const message = typeof body === 'object' && body !== null ? (body as { id?: unknown; params?: { protocolVersion?: unknown; _meta?: Record<string, unknown> } }) : {};
  const named = message.params?._meta?.[PROTOCOL_VERSION_META_KEY] ?? message.params?.protocolVersion ?? headerVersion;
  const error = new UnsupportedProtocolVersionError({ supported: eras.map((era) => era.revision), requested: typeof named === 'string' ? named : 'unknown' });
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? (message.id as RequestId) : null;
  return { jsonrpc: '2.0', id, error: { code: error.code, message: error.message, data: error.data } } as JSONRPCErrorResponse;
}
