import {
  classifyInboundRequest,
  legacyStatelessFallback,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type JSONRPCMessage,
  type RequestId,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/server';
import { type CallerWire, type HttpRequestView, isPlainObject, type PlainCall, plainParams, toolCallShape, type WireError } from '../../core/plugin/revision.js';

/**
 * What a stateless endpoint cannot carry on this revision, though a child answers it: a
 * subscription set on one request would hold for no other (the README's table). A log
 * level is kept by the hub for the caller (`keepsLogLevel`), never set on the child, whose
 * level would hold for every caller: asked of a child that does not log, it is refused too.
 */
const REFUSED = new Set(['logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * The revision toward callers: requests without a per-request envelope (the `initialize`
 * handshake, then requests naming the revision in their header), served statelessly by
 * the SDK's legacy handler; results without the server's identity; non-object structured
 * output wrapped.
 */
export function createCallerWire(revision: string): CallerWire {
  const requestedRevision = ({ headers, body }: HttpRequestView): string | undefined => {
    const message = body as { method?: unknown; params?: { protocolVersion?: unknown; _meta?: Record<string, unknown> } } | null | undefined;
    const named = message?.params?._meta?.[PROTOCOL_VERSION_META_KEY] ?? (message?.method === 'initialize' ? message.params?.protocolVersion : headers['mcp-protocol-version']);
    return typeof named === 'string' ? named : undefined;
  };
  return {
    era: 'legacy',
    serves(request) {
      const outcome = classifyInboundRequest({ httpMethod: request.method, protocolVersionHeader: header(request, 'mcp-protocol-version'), body: request.body });
      // A malformed request naming a revision of this family gets the SDK's own refusal.
      return outcome.kind === 'legacy' || (outcome.kind === 'reject' && SUPPORTED_PROTOCOL_VERSIONS.includes(requestedRevision(request) ?? ''));
    },
    claims: (request) => classifyInboundRequest({ httpMethod: request.method, protocolVersionHeader: header(request, 'mcp-protocol-version'), body: request.body }).kind === 'legacy',
    servesMessage: (message) => !hasEnvelope(message),
    // What a request names, whichever revision's mechanism it uses: the refusal of one no enabled plugin serves says it.
    requestedRevision,
    opensStream: () => false,
    listenedResources: () => [],
    createHandler: (factory) => ({ fetch: legacyStatelessFallback((context) => factory(context)), close: async () => undefined }),
    capabilities: narrow,
    refuses: (method) => REFUSED.has(method),
    // In band, as every answer of a stateless 2025 endpoint.
    methodNotFoundStatus: 200,
    // Served statelessly, a caller's cancellation is a request of its own: the hub ties it to the call.
    cancelledRequest,
    keepsLogLevel: true,
    presentTool,
    presentResult,
    elicitation: 'not-offered',
    // Questions never reach a caller of this revision (`elicitation: 'not-offered'`).
    relayQuestion: (_question) => ({ question: undefined, dropped: new Map() }),
    answersOf: () => undefined,
    plainCall: (request) => plainCall(revision, request),
    // Results carry neither the server's identity nor their kind on this revision.
    frameResult: (result) => result,
    relayedError,
  };
}

/** 2026-07-28's code for a request whose `Mcp-Param-*` header disagrees with its body (the SDK names it only internally). */
const HEADER_MISMATCH = -32020;

/**
 * A child spoken to on 2026-07-28 may answer with codes this revision does not define; a
 * caller of this revision gets what the SDK answers a 2025-11-25 request for the same
 * failure: a capability the caller lacks is a tool error on a tool call (the legacy
 * shim's answer) and an internal error otherwise; an unsupported revision is this
 * revision's `-32602 Unsupported protocol version`; a header that disagrees with the body
 * is an invalid request.
 */
function relayedError(error: WireError, method: string): WireError | CallToolResult {
  switch (error.code) {
    case ProtocolErrorCode.MissingRequiredClientCapability:
      if (method === 'tools/call') return { content: [{ type: 'text', text: error.message }], isError: true };
      return { code: ProtocolErrorCode.InternalError, message: error.message };
    case ProtocolErrorCode.UnsupportedProtocolVersion:
      return { ...error, code: ProtocolErrorCode.InvalidParams };
    case HEADER_MISMATCH:
      return { ...error, code: ProtocolErrorCode.InvalidRequest };
    default:
      return error;
  }
}

function header(request: HttpRequestView, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Whether a message uses another revision's per-request envelope, or is its discovery probe. */
function hasEnvelope(message: JSONRPCMessage): boolean {
  if (!('method' in message)) return false;
  const params = message.params as { _meta?: Record<string, unknown> } | undefined;
  return message.method === 'server/discover' || params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/**
 * Nothing is pushed on this revision outside a request: the child's kinds of thing,
 * without list changes or subscriptions; its log messages during a caller's call, at the
 * level the caller set.
 */
function narrow(child: ServerCapabilities | undefined): ServerCapabilities {
  if (!child) return { tools: {} };
  return {
    ...(child.tools && { tools: {} }),
    ...(child.logging && { logging: {} }),
    ...(child.resources && { resources: {} }),
    ...(child.prompts && { prompts: {} }),
    ...(child.completions && { completions: {} }),
  };
}

/** The request a `notifications/cancelled` names. */
function cancelledRequest(message: unknown): RequestId | undefined {
  if (!isPlainObject(message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const requestId = isPlainObject(message.params) ? message.params.requestId : undefined;
  return typeof requestId === 'string' || typeof requestId === 'number' ? requestId : undefined;
}

/** Object-rooted schemas are the same on both revisions, so a child's own wrap is kept. */
function needsWrap(tool: Tool | undefined): boolean {
  const schema = tool?.outputSchema as { type?: unknown } | undefined;
  return schema !== undefined && schema.type !== 'object';
}

function presentTool(tool: Tool): Tool {
  if (!needsWrap(tool)) return tool;
  return { ...tool, outputSchema: { type: 'object', properties: { result: tool.outputSchema as object }, required: ['result'] } };
}

function presentResult(tool: Tool | undefined, result: CallToolResult): CallToolResult {
  if (!needsWrap(tool) || result.structuredContent === undefined) return result;
  return { ...result, structuredContent: { result: result.structuredContent } };
}

/**
 * A plain call on this revision: a stateless request naming the revision in its header,
 * whose `_meta` (passed on to the child as the SDK's road passes it) asks for no progress.
 */
function plainCall(revision: string, request: HttpRequestView): PlainCall | undefined {
  if (request.headers['mcp-protocol-version'] !== revision || request.headers['mcp-session-id'] !== undefined) return undefined;
  const shape = toolCallShape(request);
  if (!shape) return undefined;
  const meta = shape.meta;
  if (meta !== undefined && (!isPlainObject(meta) || meta.progressToken !== undefined || meta[PROTOCOL_VERSION_META_KEY] !== undefined)) return undefined;
  return { id: shape.id, params: plainParams(shape, meta), envelope: {} };
}
