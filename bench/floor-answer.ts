// What the bench's floors answer themselves (http-floor.ts, fastify-floor.ts, and the
// handshakes of stdio-proxy-floor.ts): a fixed `echo` tool result, and the two handshakes the
// load client may make (2026-07-28's `server/discover`, 2025-11-25's `initialize`), so that
// the same load client drives each of them.
const serverInfo = { name: 'floor', version: '1.0.0' };
export const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

/** A JSON-RPC request as the floors read it: no checks, their clients are the benches. */
export interface FloorRequest {
  id?: number | string;
  method?: unknown;
  params?: unknown;
}

/** Whether `method` is a handshake, which a floor answers itself rather than forwarding it. */
export const isHandshake = (method: unknown): boolean => method === 'server/discover' || method === 'initialize';

/** The JSON-RPC result for `method`, on the revision the request names (`modern`: 2026-07-28). */
export function answer(method: unknown, modern: boolean): Record<string, unknown> {
  if (method === 'server/discover') return { supportedVersions: [MODERN], capabilities: { tools: {} }, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } };
  if (method === 'initialize') return { protocolVersion: LEGACY, capabilities: { tools: {} }, serverInfo };
  const content = [{ type: 'text', text: 'Echo: hi' }];
  return modern ? { content, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } } : { content };
}

/** The whole JSON-RPC answer to `request`, as text. */
export const answerText = (request: FloorRequest, modern: boolean): string => JSON.stringify({ jsonrpc: '2.0', id: request.id, result: answer(request.method, modern) });
