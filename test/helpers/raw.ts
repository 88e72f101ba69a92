import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';

export interface JsonRpcAnswer<R = Record<string, unknown>> {
  status: number;
  headers: Headers;
  /** Every message of the answer in order: the notifications of an event stream, then the response. */
  messages: Array<{ method?: string; params?: Record<string, unknown>; id?: unknown }>;
  result?: R;
  error?: { code: number; message: string; data?: unknown };
}

export interface RawRequestOptions {
  /** Added to the request's `_meta` (beside the envelope on 2026-07-28). */
  meta?: Record<string, unknown>;
  /** Sent instead of the standard headers of the same name. */
  headers?: Record<string, string>;
}

/**
 * One JSON-RPC request sent by hand, for what an SDK client refuses to send itself
 * (a method its revision does not define, a header that contradicts the body). On
 * 2026-07-28 the request carries the per-request envelope and the standard headers; on
 * 2025-11-25 it is a bare stateless request. An event-stream answer is read to its last
 * message, the response.
 */
export async function rawRequest<R = Record<string, unknown>>(
  url: string,
  revision: string,
  method: string,
  params: Record<string, unknown> = {},
  { meta, headers }: RawRequestOptions = {},
): Promise<JsonRpcAnswer<R>> {
  const modern = revision === '2026-07-28';
  const envelope = { [PROTOCOL_VERSION_META_KEY]: revision, [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1.0.0' }, [CLIENT_CAPABILITIES_META_KEY]: {} };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': revision,
      ...(modern && { 'mcp-method': method }),
      ...(modern && method === 'tools/call' && typeof params.name === 'string' && { 'mcp-name': params.name }),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: modern ? { ...params, _meta: { ...envelope, ...meta } } : { ...params, ...(meta && { _meta: meta }) },
    }),
  });
  const text = await response.text();
  const messages = (text.startsWith('{') ? [text] : [...text.matchAll(/^data: (.*)$/gm)].map((match) => match[1] ?? '{}')).map((json) => JSON.parse(json) as JsonRpcAnswer['messages'][number]);
  return { status: response.status, headers: response.headers, messages, ...(messages.at(-1) as Omit<JsonRpcAnswer<R>, 'status' | 'headers' | 'messages'>) };
}
