import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type CallToolRequestParams,
  type CallToolResult,
  type InputRequiredResult,
  type RequestId,
} from '@modelcontextprotocol/server';
import type { ServerResponse } from 'node:http';
import type { AccessRecord } from '../access-log.js';
import type { ToolCallEvent } from '../observe.js';
import { CallCancellation } from '../children/client/call-cancel.js';
import { callerServers } from './authenticator.js';
import type { CallerRequest } from '../calls/caller-request.js';
import type { Cancellations } from './cancellations.js';
import type { McpEndpoint } from './endpoint.js';
import { onClose } from '../net/on-close.js';
import { jsonRpcError, writeJson } from './json-rpc-message.js';
import type { HttpRequestView, PlainCall } from '../revisions/revision.js';
import type { ServedRevision } from '../revisions/served-revision.js';
import { toolError, unknownToolProtocolError } from '../calls/tool-results.js';

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
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/call' || !onlyKeys(body, MESSAGE_KEYS)) return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isPlainObject(params) || !onlyKeys(params, PARAM_KEYS)) return undefined;
  const { name, arguments: toolArguments, _meta: meta } = params;
  if (typeof name !== 'string' || (toolArguments !== undefined && !isPlainObject(toolArguments))) return undefined;
  return { id: id as RequestId, name, arguments: toolArguments, meta };
}

/** The call's params for the child: its name, arguments and whatever `_meta` the caller's revision passes on. */
export function plainParams(shape: ToolCallShape, meta: Record<string, unknown> | undefined): CallToolRequestParams {
  // Set key by key rather than spread from conditional objects: no object made only to be copied, on every call.
  const params: CallToolRequestParams = { name: shape.name };
  if (shape.arguments !== undefined) params.arguments = shape.arguments;
  if (meta !== undefined && hasKeys(meta)) params._meta = meta;
  return params;
}

function hasKeys(value: Record<string, unknown>): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
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
 * call, and so does a cancellation the caller sends apart (kept in `cancellations`).
 */
export function answerPlainCall(
  endpoint: McpEndpoint,
  revision: ServedRevision,
  call: PlainCall,
  response: ServerResponse,
  auth: AuthInfo | undefined,
  access: AccessRecord | undefined,
  cancellations?: { registry: Cancellations; caller: string },
): Promise<void> {
  const caller = new PlainCaller(call, auth, access);
  cancellations?.registry.add(cancellations.caller, call.id, caller);
  onClose(response, () => {
    if (!response.writableFinished) caller.abort();
    cancellations?.registry.remove(cancellations.caller, call.id, caller);
  });
  // Not async (an async frame less on every call): the endpoint's promise with the answer's writing as its handlers.
  let answering: Promise<CallToolResult | InputRequiredResult | undefined>;
  try {
    answering = endpoint.callTool(revision, call.params, caller);
  } catch (error) {
    answering = Promise.reject(error);
  }
  return answering.then(
    (answer) => {
      let message: Record<string, unknown>;
      try {
        if (answer === undefined) throw unknownToolProtocolError(call.params.name);
        // Without the caller's elicitation capability no question is forwarded; the relay has turned any into a tool error.
        const result = isInputRequiredResult(answer) ? toolError('Tool call failed: a question came back on a request that cannot answer one') : answer;
        message = { jsonrpc: '2.0', id: call.id, result: revision.frameResult(result, endpoint.identity(revision)) };
      } catch (error) {
        writeError(response, call, error);
        return;
      }
      if (response.destroyed) return;
      const bytes = writeJson(response, 200, message);
      if (caller.event) caller.event.resultBytes = bytes;
    },
    (error: unknown) => writeError(response, call, error),
  );
}

/**
 * As the SDK's server answers an error its handler threw: in band, except a missing
 * capability (HTTP 400); anything but a protocol error goes on as it came.
 */
function writeError(response: ServerResponse, call: PlainCall, error: unknown): void {
  if (!ProtocolError.isInstance(error)) throw error;
  if (response.destroyed) return;
  writeJson(response, error.code === ProtocolErrorCode.MissingRequiredClientCapability ? 400 : 200, jsonRpcError(call.id, error.code, error.message, error.data));
}

/**
 * The caller of a plain call, whose cancellation is its response closing before the
 * answer (or, on a revision whose cancellations arrive apart, its `notifications/cancelled`).
 * The call hears it through `onCancel`; an AbortSignal is made only for whoever reads `signal`.
 */
class PlainCaller extends CallCancellation implements CallerRequest {
  readonly meta: Record<string, unknown> | undefined;
  readonly envelope: Record<string, unknown>;
  readonly answers = undefined;
  readonly clientId: string | undefined;
  readonly servers: readonly string[] | undefined;
  /** The call's observation, when observers listen: the answer's byte length is set on it once written. */
  event: ToolCallEvent | undefined = undefined;

  constructor(
    call: PlainCall,
    auth: AuthInfo | undefined,
    readonly access: AccessRecord | undefined,
  ) {
    super();
    this.meta = call.params._meta;
    this.envelope = call.envelope;
    this.clientId = auth?.clientId;
    this.servers = callerServers(auth);
  }

  notify(): Promise<void> {
    return Promise.resolve();
  }

  observed(event: ToolCallEvent): void {
    this.event = event;
  }
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
