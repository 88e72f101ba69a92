import { isJSONRPCErrorResponse, SdkError, SdkErrorCode, SdkHttpError, type AuthProvider, type Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { createParser } from 'eventsource-parser';
import { type PlainToolCall, plainRoadOf } from '../../core/plugin/child-type.js';
import { readBounded, type ChildHttp } from './child-http.js';

export interface PlainToolCallTarget {
  url: URL;
  /** The child's kept-alive connections. */
  http: ChildHttp;
  /** The entry's static headers; the call's own win over them. */
  headers: Record<string, string> | undefined;
  authProvider: AuthProvider | undefined;
  /** The SDK client of the connection: its revision, envelope and decoder. */
  client: Client;
}

/** Header values the Streamable HTTP transport may send as they are; other names are base64-encoded, so the SDK sends those. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e]{1,128}$/;

type Body = AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown; on(event: 'error', listener: () => void): unknown };

/**
 * `tools/call` on a Streamable HTTP child whose revision carries a per-request envelope,
 * as one POST on a kept-alive connection and one decode: the SDK client's road costs more
 * CPU than the exchange itself. The request carries what the SDK's would (the envelope and
 * the standard headers); the answer is read by the kernel's one decoder of a tool answer,
 * so both roads fail alike. A 401 or 403 (the SDK refreshes or steps up) and a redirect
 * (the SDK follows it within the origin, or explains) leave the call to the SDK: the
 * server acted on nothing. Undefined for a connection without a plain road.
 */
export function createPlainToolCall(target: PlainToolCallTarget): PlainToolCall | undefined {
  const road = plainRoadOf(target.client);
  if (!road) return undefined;
  let nextId = 0;
  const staticHeaders = Object.fromEntries(Object.entries(target.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const path = `${target.url.pathname}${target.url.search}`;
  return async (params, cancel) => {
    if (!PLAIN_HEADER_VALUE.test(params.name)) return undefined;
    const id = `hub-${(nextId += 1)}`;
    const headers: Record<string, string> = {
      ...staticHeaders,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': road.revision,
      'mcp-method': 'tools/call',
      'mcp-name': params.name,
    };
    const token = await target.authProvider?.token();
    if (token) headers.authorization = `Bearer ${token}`;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: { ...params._meta, ...road.envelope } } });
    const answer = await target.http.dispatcher.request({ origin: target.url.origin, path, method: 'POST', headers, body, signal: cancel.signal });
    const status = answer.statusCode;
    if (status === 401 || status === 403 || (status >= 300 && status < 400)) {
      await answer.body.dump();
      return undefined;
    }
    const events = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
    if (status >= 200 && status < 300 && events) return road.decode(await answerFromEvents(answer.body, id));
    const text = (await readBounded(answer.body, target.http.maxBytes)).toString('utf8');
    if (status >= 200 && status < 300) return road.decode(JSON.parse(text) as JSONRPCMessage);
    // As the SDK's transport: a server answers a refused request with HTTP 400 and its JSON-RPC error.
    const refusal = status === 400 ? jsonRpcErrorFor(text, id) : undefined;
    if (refusal) return road.decode(refusal);
    throw new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status, statusText: '', text });
  };
}

function jsonRpcErrorFor(text: string, id: string): JSONRPCMessage | undefined {
  try {
    const message = JSON.parse(text) as JSONRPCMessage;
    return isJSONRPCErrorResponse(message) && message.id === id ? message : undefined;
  } catch {
    return undefined;
  }
}

/** Reads an event-stream answer up to the response to `id`; notifications on the way are not carried on this road. */
async function answerFromEvents(stream: Body, id: string): Promise<JSONRPCMessage> {
  const decoder = new TextDecoder();
  let answer: JSONRPCMessage | undefined;
  const parser = createParser({
    onEvent(event) {
      const message = JSON.parse(event.data) as JSONRPCMessage;
      if ('id' in message && message.id === id && !('method' in message)) answer = message;
    },
  });
  try {
    for await (const chunk of stream) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (answer !== undefined) return answer;
    }
    throw new SdkError(SdkErrorCode.ConnectionClosed, 'the server closed the event stream before answering');
  } finally {
    // The rest of the stream is not wanted; ending it early is no error of the call's.
    stream.on('error', () => undefined);
    stream.destroy();
  }
}
