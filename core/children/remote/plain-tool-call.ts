import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  specTypeSchemas,
  type AuthProvider,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import { createParser } from 'eventsource-parser';
import type { PlainToolCall } from '../child-type.js';
import { readBounded, type ChildHttp } from './child-http.js';

export interface PlainToolCallTarget {
  url: URL;
  /** The child's kept-alive connections. */
  http: ChildHttp;
  /** The entry's static headers; the call's own win over them. */
  headers: Record<string, string> | undefined;
  authProvider: AuthProvider | undefined;
  clientInfo: Implementation;
  /** The 2026 revision the connection negotiated. */
  revision: string;
  /** Told when a result without `resultType` is read as complete, as the SDK road reads it. */
  onRepaired(): void;
}

/**
 * The SDK's own schema for a call result. Its entries are zod schemas, typed as Standard
 * Schemas; the zod face gives the error in the very words the SDK client uses.
 */
const callToolResultSchema = specTypeSchemas.CallToolResult as unknown as {
  safeParse(value: unknown): { success: true; data: CallToolResult } | { success: false; error: unknown };
};

/** Header values the 2026 transport may send as they are; other names are base64-encoded, so the SDK sends those. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e]{1,128}$/;

type Body = AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown; on(event: 'error', listener: () => void): unknown };

/**
 * `tools/call` on a Streamable HTTP child that speaks 2026-07-28, as one POST on a
 * kept-alive connection and one JSON decode: the SDK client's road costs more CPU than
 * the exchange itself. The request carries what the SDK's would (the per-request
 * envelope and the standard headers); the answer is read as the SDK reads it, with the
 * same errors. A 401 or 403 (the SDK refreshes or steps up) and a redirect (the SDK
 * follows it within the origin, or explains) leave the call to the SDK: the server acted
 * on nothing.
 */
export function createPlainToolCall(target: PlainToolCallTarget): PlainToolCall {
  let nextId = 0;
  const staticHeaders = Object.fromEntries(Object.entries(target.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const path = `${target.url.pathname}${target.url.search}`;
  return async (params, signal) => {
    if (!PLAIN_HEADER_VALUE.test(params.name)) return undefined;
    const id = `hub-${(nextId += 1)}`;
    const headers: Record<string, string> = {
      ...staticHeaders,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': target.revision,
      'mcp-method': 'tools/call',
      'mcp-name': params.name,
    };
    const token = await target.authProvider?.token();
    if (token) headers.authorization = `Bearer ${token}`;
    const envelope = { [PROTOCOL_VERSION_META_KEY]: target.revision, [CLIENT_INFO_META_KEY]: target.clientInfo, [CLIENT_CAPABILITIES_META_KEY]: {} };
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...params, _meta: { ...params._meta, ...envelope } } });
    const answer = await target.http.dispatcher.request({ origin: target.url.origin, path, method: 'POST', headers, body, signal });
    const status = answer.statusCode;
    if (status === 401 || status === 403 || (status >= 300 && status < 400)) {
      await answer.body.dump();
      return undefined;
    }
    const events = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
    if (status >= 200 && status < 300 && events) return decodeAnswer(await answerFromEvents(answer.body, id), target.onRepaired);
    const text = (await readBounded(answer.body, target.http.maxBytes)).toString('utf8');
    if (status >= 200 && status < 300) return decodeAnswer(JSON.parse(text) as JSONRPCMessage, target.onRepaired);
    // As the SDK's transport: a 2026 server answers a refused request with HTTP 400 and its JSON-RPC error.
    const refusal = status === 400 ? jsonRpcErrorFor(text, id) : undefined;
    if (refusal) return decodeAnswer(refusal, target.onRepaired);
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

/**
 * The child's answer read as the SDK client reads a 2026-07-28 `tools/call` answer, with
 * the SDK's own error classes and texts, so both roads fail alike.
 */
function decodeAnswer(message: JSONRPCMessage, onRepaired: () => void): CallToolResult | InputRequiredResult {
  if (isJSONRPCErrorResponse(message)) throw ProtocolError.fromError(message.error.code, message.error.message, message.error.data);
  if (!isJSONRPCResultResponse(message)) throw new SdkError(SdkErrorCode.InvalidResult, 'Invalid result for tools/call: not an object', { method: 'tools/call' });
  const { resultType, ...raw } = message.result as Record<string, unknown>;
  if (resultType === undefined) onRepaired();
  else if (typeof resultType !== 'string') throw new SdkError(SdkErrorCode.InvalidResult, 'Invalid result for tools/call: non-string resultType', { method: 'tools/call', resultType });
  if (resultType === 'input_required') return inputRequired(raw);
  if (resultType !== undefined && resultType !== 'complete') {
    throw new SdkError(SdkErrorCode.UnsupportedResultType, `Unsupported result type '${String(resultType)}' for tools/call`, { resultType, method: 'tools/call' });
  }
  const checked = callToolResultSchema.safeParse(raw);
  if (!checked.success) throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${String(checked.error)}`, { method: 'tools/call' });
  return withTextFallback(checked.data);
}

function inputRequired(raw: Record<string, unknown>): InputRequiredResult {
  const { inputRequests, requestState, _meta } = raw;
  const requests = typeof inputRequests === 'object' && inputRequests !== null && !Array.isArray(inputRequests) ? inputRequests : {};
  if (Object.keys(requests).length === 0 && typeof requestState !== 'string') {
    throw new SdkError(
      SdkErrorCode.InvalidResult,
      'Invalid result for tools/call: input_required carries neither inputRequests nor requestState (every input_required result must include at least one of the two)',
      { method: 'tools/call', violation: 'input-required-missing-both' },
    );
  }
  return {
    resultType: 'input_required',
    inputRequests: requests as InputRequiredResult['inputRequests'],
    ...(typeof requestState === 'string' && { requestState }),
    ...(typeof _meta === 'object' && _meta !== null && { _meta: _meta as Record<string, unknown> }),
  } as InputRequiredResult;
}

/** As the SDK client does: a non-object structured value is also given as text, for clients that read only text. */
function withTextFallback(result: CallToolResult): CallToolResult {
  const value = result.structuredContent as unknown;
  if (value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value))) return result;
  if (result.content.some((block) => block.type === 'text')) return result;
  return { ...result, content: [...result.content, { type: 'text', text: JSON.stringify(value) }] };
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
