import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  isSpecType,
  type JSONRPCMessage,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type ServerCapabilities,
} from '@modelcontextprotocol/server';
import { type CallerWire, type HttpRequestView, isPlainObject, type PlainCall, plainParams, toolCallShape } from '../../core/plugin/revision.js';

/** The per-request envelope; a plain call's `_meta` carries these, and the caller's own keys outside the reserved prefix. */
const ENVELOPE_KEYS = new Set<string>([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';
const LISTEN = 'subscriptions/listen';

/**
 * The revision toward callers: requests that carry its per-request envelope (or its
 * header), served by the SDK's strict handler; results that state the server's identity
 * and their kind; questions as input-required results; list changes on listen streams.
 */
export function createCallerWire(revision: string, options: { elicitation: boolean }): CallerWire {
  // What a request names, whichever revision's mechanism it uses: the refusal of one no enabled plugin serves says it.
  const requestedRevision = ({ headers, body }: HttpRequestView): string | undefined => {
    const message = body as { method?: unknown; params?: { protocolVersion?: unknown; _meta?: Record<string, unknown> } } | null | undefined;
    const named = message?.params?._meta?.[PROTOCOL_VERSION_META_KEY] ?? (message?.method === 'initialize' ? message.params?.protocolVersion : headers['mcp-protocol-version']);
    return typeof named === 'string' ? named : undefined;
  };
  return {
    era: 'modern',
    serves(request) {
      const outcome = classify(request);
      if (outcome.kind === 'modern') return outcome.classification.revision === revision;
      // A malformed request naming this revision (in its envelope or its header) gets the SDK's own refusal.
      return outcome.kind === 'reject' && (envelopeRevision(request.body) === revision || request.headers['mcp-protocol-version'] === revision);
    },
    claims: (request) => classify(request).kind === 'modern',
    servesMessage: (message) => ('method' in message && envelopeRevision(message) === revision) || isDiscoverProbe(message),
    requestedRevision,
    opensStream: (body) => isPlainObject(body) && body.method === LISTEN,
    listenedResources,
    createHandler: (factory) => createMcpHandler((context) => factory(context), { legacy: 'reject' }),
    capabilities: narrow,
    // Nothing the child answers is withheld: what the revision lacks, its SDK handler refuses.
    refuses: () => false,
    methodNotFoundStatus: 404,
    presentTool: (tool) => tool,
    presentResult: (_tool, result) => result,
    elicitation: options.elicitation ? 'carried' : 'switched-off',
    relayQuestion(question, carried) {
      const kept: NonNullable<typeof question.inputRequests> = {};
      const dropped = new Map<string, string[]>();
      for (const [key, embedded] of Object.entries(question.inputRequests ?? {})) {
        if (carried(embedded.method)) kept[key] = embedded;
        else dropped.set(embedded.method, [...(dropped.get(embedded.method) ?? []), key]);
      }
      // Nothing left to ask, and no state for the child to resume from.
      if (Object.keys(kept).length === 0 && question.requestState === undefined) return { question: undefined, dropped };
      return { question: { ...question, inputRequests: kept }, dropped };
    },
    answersOf(request) {
      const requestState = request.requestState();
      if (request.inputResponses === undefined && typeof requestState !== 'string') return undefined;
      return { ...(request.inputResponses && { inputResponses: request.inputResponses }), ...(typeof requestState === 'string' && { requestState }) };
    },
    plainCall: (request) => plainCall(revision, request),
    // Results state the server's identity and their kind on this revision.
    frameResult: (result, identity) => {
      // Copied key by key: framed with an object spread, every result survived minor
      // collections and was promoted (272 bytes promoted a call on this road instead of 103:
      // bench/promotion.ts against this code with the spread put back; why the spread's
      // copy lived on was not found).
      const framed: Record<string, unknown> = {};
      for (const key in result) {
        // A child's own `__proto__` key stays a key, as a spread keeps it.
        if (key === '__proto__') Object.defineProperty(framed, key, { value: result[key], enumerable: true, writable: true, configurable: true });
        else framed[key] = result[key];
      }
      framed._meta = { ...result._meta, [SERVER_INFO_META_KEY]: identity };
      framed.resultType = 'complete';
      return framed;
    },
  };
}

function header(request: HttpRequestView, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The SDK's classification of the request: the same the SDK's handler makes. */
function classify(request: HttpRequestView) {
  return classifyInboundRequest({
    httpMethod: request.method,
    protocolVersionHeader: header(request, 'mcp-protocol-version'),
    mcpMethodHeader: header(request, 'mcp-method'),
    mcpNameHeader: header(request, 'mcp-name'),
    body: request.body,
  });
}

/** The revision a message's envelope names. */
function envelopeRevision(message: unknown): unknown {
  return (message as { params?: { _meta?: Record<string, unknown> } } | null | undefined)?.params?._meta?.[PROTOCOL_VERSION_META_KEY];
}

/** A negotiating client's first request, which names no revision yet. */
function isDiscoverProbe(message: JSONRPCMessage): boolean {
  return 'method' in message && message.method === 'server/discover';
}

/**
 * What the child declared of what the hub carries, and no more: list changes and resource
 * updates reach listen streams when the child announces them. A child that declares no
 * capabilities at all (one never seen) is offered tools, which the hub always lists.
 */
function narrow(child: ServerCapabilities | undefined): ServerCapabilities {
  if (!child) return { tools: {} };
  return {
    ...(child.tools && { tools: child.tools.listChanged ? { listChanged: true } : {} }),
    ...(child.resources && { resources: { ...(child.resources.listChanged && { listChanged: true }), ...(child.resources.subscribe && { subscribe: true }) } }),
    ...(child.prompts && { prompts: child.prompts.listChanged ? { listChanged: true } : {} }),
    ...(child.completions && { completions: {} }),
  };
}

/**
 * A plain call on this revision: standard headers that match the body, a well-formed
 * envelope (checked with the SDK's own schemas) without the elicitation capability, and
 * no progress token. The caller's own `_meta` keys go to the child as on the SDK's road;
 * any other reserved key is left to the SDK, which knows what it means.
 */
function plainCall(revision: string, request: HttpRequestView): PlainCall | undefined {
  const { headers } = request;
  if (headers['mcp-protocol-version'] !== revision || headers['mcp-method'] !== 'tools/call') return undefined;
  const shape = toolCallShape(request);
  if (!shape || headers['mcp-name'] !== shape.name) return undefined;
  const meta = shape.meta;
  if (!isPlainObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== revision || meta.progressToken !== undefined) return undefined;
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  if (!isImplementation(meta[CLIENT_INFO_META_KEY]) || !isClientCapabilities(capabilities) || capabilities.elicitation !== undefined) return undefined;
  if (meta[LOG_LEVEL_META_KEY] !== undefined && !isSpecType.LoggingLevel(meta[LOG_LEVEL_META_KEY])) return undefined;
  const envelope: Record<string, unknown> = {};
  const passed: Record<string, unknown> = {};
  // `for...in` rather than `Object.entries`: no array of pairs on every call (the body is JSON, its keys all own).
  for (const key in meta) {
    if (!Object.hasOwn(meta, key)) continue;
    const value = meta[key];
    if (ENVELOPE_KEYS.has(key)) envelope[key] = value;
    else if (key.startsWith(RESERVED_META_PREFIX)) return undefined;
    else passed[key] = value;
  }
  return { id: shape.id, params: plainParams(shape, passed), envelope };
}

/**
 * The envelope's client identity as the SDK's schema has it; the commonest one (a name and
 * a version, nothing else) is told by its shape, without the schema library.
 */
function isImplementation(value: unknown): boolean {
  if (isPlainObject(value) && typeof value.name === 'string' && typeof value.version === 'string' && Object.keys(value).length === 2) return true;
  return isSpecType.Implementation(value);
}

/** The envelope's client capabilities as the SDK's schema has them; none at all is told without it. */
function isClientCapabilities(value: unknown): value is Record<string, unknown> {
  if (isPlainObject(value) && Object.keys(value).length === 0) return true;
  return isSpecType.ClientCapabilities(value);
}

/** The resource URIs a listen request names, so the child is asked to watch them. */
function listenedResources(body: unknown): string[] {
  const message = body as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } } | null;
  if (message?.method !== LISTEN) return [];
  const uris = message.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}
