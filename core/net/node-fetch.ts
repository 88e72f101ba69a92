import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';

/** An answer over the size limit, or a connection silent for longer than the time limit. */
export class FetchLimitError extends Error {
  override readonly name = 'FetchLimitError';
}

export interface NodeRequestOptions {
  /** Connections to reuse; without them every request opens its own. */
  agents?: { http: http.Agent; https: https.Agent };
  /** Resolves host names; the guarded fetch checks every address here. */
  lookup?: LookupFunction;
  /** How long the connection may stay silent before the request fails; none by default. */
  timeoutMs?: number;
  /** A buffered answer larger than this is cut off and refused. */
  maxBytes: number;
  /** `text/event-stream` answers are handed on as they arrive instead of buffered (and are not size-limited). */
  streamEvents?: boolean;
}

/** An answer as node:http gives it: buffered bytes, or the live stream of an event-stream answer. */
export interface NodeAnswer {
  status: number;
  statusText: string;
  rawHeaders: string[];
  body: Buffer | http.IncomingMessage;
}

export interface NodeRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | undefined;
  signal?: AbortSignal | undefined;
}

export type NodeRequest = (url: URL, init: NodeRequestInit) => Promise<NodeAnswer>;

/**
 * One HTTP exchange over node:http, answered with node's own objects: for callers that
 * need no `Response` (the hub's plain tool calls), and underneath `nodeFetch`.
 */
export function nodeRequest(options: NodeRequestOptions): NodeRequest {
  const send: NodeRequest = (url, init) =>
    new Promise<NodeAnswer>((resolve, reject) => {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`cannot fetch a ${url.protocol} URL`);
      const secure = url.protocol === 'https:';
      const request = (secure ? https : http).request(url, {
        method: init.method,
        headers: init.headers,
        ...(options.agents && { agent: secure ? options.agents.https : options.agents.http }),
        ...(options.lookup && { lookup: options.lookup }),
        ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
        ...(init.signal && { signal: init.signal }),
      });
      request.on('response', (response) => {
        const answer = (body: Buffer | http.IncomingMessage): NodeAnswer => ({
          status: response.statusCode ?? 502,
          statusText: response.statusMessage ?? '',
          rawHeaders: response.rawHeaders,
          body,
        });
        if (options.streamEvents && response.headers['content-type']?.startsWith('text/event-stream')) resolve(answer(response));
        else collect(response, options.maxBytes, url).then((bytes) => resolve(answer(bytes)), reject);
      });
      if (options.timeoutMs !== undefined) request.on('timeout', () => request.destroy(new FetchLimitError(`${url.origin} did not answer in time`)));
      request.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed while idle fails at once; the server
        // never saw the request, so it is sent again on a fresh connection.
        if (request.reusedSocket && error.code === 'ECONNRESET') send(url, init).then(resolve, reject);
        else reject(error);
      });
      request.end(init.body);
    });
  return send;
}

/**
 * A fetch over node:http. The platform fetch wraps every exchange in WHATWG streams and
 * objects that cost more CPU than a small JSON-RPC exchange on loopback itself; this one
 * buffers the answer and builds one `Response` from it. Bodies are strings, bytes or forms.
 * `send` (from `nodeRequest`) carries the exchange.
 */
export function nodeFetch(send: NodeRequest): FetchLike {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers);
    const body = requestBody(init?.body, headers);
    const method = init?.method ?? 'GET';
    const answer = await send(url, { method, headers: Object.fromEntries(headers), body, signal: init?.signal ?? undefined });
    const responseInit = { status: answer.status, statusText: answer.statusText, headers: responseHeaders(answer.rawHeaders) };
    if (answer.status === 204 || answer.status === 205 || answer.status === 304 || method === 'HEAD') {
      if (!Buffer.isBuffer(answer.body)) answer.body.resume();
      return new Response(null, responseInit);
    }
    return new Response(Buffer.isBuffer(answer.body) ? answer.body : (Readable.toWeb(answer.body) as ReadableStream<Uint8Array>), responseInit);
  };
}

function requestBody(body: RequestInit['body'], headers: Headers): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof URLSearchParams) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    return body.toString();
  }
  throw new TypeError('this fetch sends string, byte or form bodies only');
}

function responseHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index] as string, raw[index + 1] as string);
  return headers;
}

function collect(response: http.IncomingMessage, maxBytes: number, url: URL): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        reject(new FetchLimitError(`the answer from ${url.origin} is too large`));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    response.on('error', reject);
    response.on('close', () => {
      if (!response.complete) reject(new Error(`the connection to ${url.origin} closed mid-answer`));
    });
  });
}
