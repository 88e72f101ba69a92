import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';

export interface JsonRpcAnswer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * One JSON-RPC request sent by hand, for what an SDK client refuses to send itself
 * (a method its revision does not define). On 2026-07-28 the request carries the
 * per-request envelope; on 2025-11-25 it is a bare stateless request.
 */
export async function rawRequest(url: string, revision: string, method: string, params: Record<string, unknown> = {}): Promise<JsonRpcAnswer> {
  const modern = revision === '2026-07-28';
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': revision,
      ...(modern && { 'mcp-method': method }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: modern
        ? {
            ...params,
            _meta: {
              [PROTOCOL_VERSION_META_KEY]: revision,
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          }
        : params,
    }),
  });
  const text = await response.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return { status: response.status, ...(JSON.parse(json) as Omit<JsonRpcAnswer, 'status'>) };
}
