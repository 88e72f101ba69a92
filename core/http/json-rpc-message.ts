import type { JSONRPCErrorResponse } from '@modelcontextprotocol/server';
import type { ServerResponse } from 'node:http';

/** The id of a JSON-RPC message (a string or a number), or null when it has none (a notification, a malformed body). */
export function requestIdOf(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Writes a whole JSON answer on the Node response and ends it (the MCP endpoints answer outside Fastify's reply); returns its byte length. */
export function writeJson(response: ServerResponse, status: number, message: unknown): number {
  const text = JSON.stringify(message);
  const bytes = Buffer.byteLength(text);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes });
  response.end(text);
  return bytes;
}

/** A JSON-RPC error response: every error the hub answers itself is made here (`data` left out when there is none). */
export function jsonRpcError(id: string | number | null, code: number, message: string, data?: unknown): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } } as JSONRPCErrorResponse;
}
