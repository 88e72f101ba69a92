import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type AuthInfo, type CallToolRequestParams, type RequestId } from '@modelcontextprotocol/server';
import type { ServerResponse } from 'node:http';
import { callerServers } from './authenticator.js';
import type { CallerRequest } from './caller-request.js';
import type { McpEndpoint } from './endpoint.js';
import type { HttpRequestView, PlainCall } from './revision.js';
import type { ServedRevision } from './served-revision.js';
import { toolError } from './tool-results.js';

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

/** A `tools/call` as every revision's fast road starts from it; `meta` is the request's `_meta`, unchecked. */
export interface ToolCallShape {
  id: RequestId;
  name: string;
  arguments: Record<string, unknown> | undefined;
  meta: unknown;
}

/**
 * The part of the fast road's test that no revision changes: a POST that accepts both
 * answer forms, carrying one well-formed JSON-RPC `tools/call` with nothing beyond a
 * name, arguments and `_meta` (a retry's answers, a task, anything else: the SDK's).
 */
export function toolCallShape({ method, headers, body }: HttpRequestView): ToolCallShape | undefined {
  const accept = headers.accept ?? '';
  if (method !== 'POST' || !accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call' || !Object.keys(body).every((key) => MESSAGE_KEYS.has(key))) return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isPlainObject(params) || !Object.keys(params).every((key) => PARAM_KEYS.has(key))) return undefined;
  const { name, arguments: toolArguments, _meta: meta } = params;
  if (typeof name !== 'string' || (toolArguments !== undefined && !isPlainObject(toolArguments))) return undefined;
  return { id: id as RequestId, name, arguments: toolArguments, meta };
}

/** The call's params for the child: its name, arguments and whatever `_meta` the caller's revision passes on. */
export function plainParams(shape: ToolCallShape, meta: Record<string, unknown> | undefined): CallToolRequestParams {
  return {
    name: shape.name,
    ...(shape.arguments !== undefined && { arguments: shape.arguments }),
    ...(meta !== undefined && Object.keys(meta).length > 0 && { _meta: meta }),
  };
}

/** The first revision whose fast road takes the request. */
export function plainCallOf(revisions: readonly ServedRevision[], request: HttpRequestView): { revision: ServedRevision; call: PlainCall } | undefined {
  for (const revision of revisions) {
    const call = revision.plainCall(request);
    if (call) return { revision, call };
  }
  return undefined;
}

/**
 * Answers a plain call as the SDK would: the same result, framed by the revision, with the
 * endpoint's identity (read after the call, which may have connected the server and
 * learnt it), or the same JSON-RPC error. The caller closing its connection cancels the
 * call. False when the endpoint has no such tool and nothing was written (the SDK
 * answers that, with its error).
 */
export async function answerPlainCall(endpoint: McpEndpoint, revision: ServedRevision, call: PlainCall, response: ServerResponse, auth: AuthInfo | undefined): Promise<boolean> {
  const cancelled = new AbortController();
  const cancel = (): void => {
    if (!response.writableFinished) cancelled.abort();
  };
  response.once('close', cancel);
  const caller: CallerRequest = { meta: call.params._meta, envelope: call.envelope, signal: cancelled.signal, notify: async () => undefined, answers: undefined, clientId: auth?.clientId, servers: callerServers(auth) };
  let message: Record<string, unknown>;
  let status = 200;
  try {
    const answer = await endpoint.callTool(revision, call.params, caller);
    if (answer === undefined) {
      response.off('close', cancel);
      return false;
    }
    // Without the caller's elicitation capability no question is forwarded; the relay has turned any into a tool error.
    const result = isInputRequiredResult(answer) ? toolError('Tool call failed: a question came back on a request that cannot answer one') : answer;
    message = { jsonrpc: '2.0', id: call.id, result: revision.frameResult(result, endpoint.identity()) };
  } catch (error) {
    if (!ProtocolError.isInstance(error)) throw error;
    // As the SDK's server answers an error its handler threw: in band, except a missing capability (HTTP 400).
    if (error.code === ProtocolErrorCode.MissingRequiredClientCapability) status = 400;
    message = { jsonrpc: '2.0', id: call.id, error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) } };
  }
  const text = JSON.stringify(message);
  if (response.destroyed) return true;
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
  return true;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
