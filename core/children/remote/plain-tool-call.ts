import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isCallToolResult,
  isInputRequiredResult,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  type AuthProvider,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type JSONRPCMessage,
} from '@modelcontextprotocol/client';
import type { IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { NodeRequest } from '../../net/node-fetch.js';
import type { PlainToolCall } from '../child-type.js';

export interface PlainToolCallTarget {
  url: URL;
  /** The child's kept-alive connections. */
  request: NodeRequest;
  /** The entry's static headers; the call's own win over them. */
  headers: Record<string, string> | undefined;
  authProvider: AuthProvider | undefined;
  clientInfo: Implementation;
  /** The 2026 revision the connection negotiated. */
  revision: string;
}

/** Header values the 2026 transport may send as they are; other names are base64-encoded, so the SDK sends those. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e]{1,128}$/;

/** How much of a failed answer's body goes into the error: enough to read, never a whole page. */
const ERROR_DETAIL_BYTES = 300;

/**
 * `tools/call` on a Streamable HTTP child that speaks 2026-07-28, as one POST on a
 * kept-alive connection and one JSON decode: the SDK client's road costs more CPU than
 * the exchange itself. The request carries what the SDK's would (the per-request
 * envelope and the standard headers). A 401 or 403 (the SDK refreshes or steps up) and a
 * redirect (the SDK follows it within the origin, or explains) leave the call to the SDK;
 * the server acted on nothing.
 */
export function createPlainToolCall(target: PlainToolCallTarget): PlainToolCall {
  let nextId = 0;
  const staticHeaders = Object.fromEntries(Object.entries(target.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
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
    const answer = await target.request(target.url, { method: 'POST', headers, body, signal });
    if (answer.status === 401 || answer.status === 403 || (answer.status >= 300 && answer.status < 400)) {
      if (!Buffer.isBuffer(answer.body)) answer.body.destroy();
      return undefined;
    }
    if (answer.status < 200 || answer.status > 299) {
      if (!Buffer.isBuffer(answer.body)) answer.body.destroy();
      const detail = Buffer.isBuffer(answer.body) ? `: ${answer.body.toString('utf8', 0, ERROR_DETAIL_BYTES)}` : '';
      throw new Error(`Error POSTing to endpoint (HTTP ${answer.status})${detail}`);
    }
    return resultOf(Buffer.isBuffer(answer.body) ? JSON.parse(answer.body.toString()) : await answerFromEvents(answer.body, id));
  };
}

/** The child's result, checked as the SDK checks it; its error as the SDK would throw it. */
function resultOf(answer: unknown): CallToolResult | InputRequiredResult {
  const message = (typeof answer === 'object' && answer !== null ? answer : {}) as { result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown; data?: unknown } };
  if (message.error) {
    const { code, message: text, data } = message.error;
    throw new ProtocolError(typeof code === 'number' ? code : -32603, typeof text === 'string' ? text : 'the server answered with an error', data);
  }
  if (isInputRequiredResult(message.result)) return message.result;
  if (typeof message.result !== 'object' || message.result === null || message.result.resultType !== 'complete') throw new Error('the server answered tools/call with no complete result');
  const { resultType: _complete, ...result } = message.result;
  const withContent = result.content === undefined ? { ...result, content: [] } : result;
  if (!isCallToolResult(withContent)) throw new Error('the server answered tools/call with an invalid result');
  return withContent;
}

/** Reads an event-stream answer up to the response to `id`; notifications on the way are not carried on this road. */
async function answerFromEvents(stream: IncomingMessage, id: string): Promise<JSONRPCMessage> {
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
      parser.feed(decoder.decode(chunk as Buffer, { stream: true }));
      if (answer !== undefined) return answer;
    }
    throw new Error('the server closed the event stream before answering');
  } finally {
    stream.destroy();
  }
}
