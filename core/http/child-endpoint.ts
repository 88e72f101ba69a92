import {
  isInputRequiredResult,
  isJSONRPCErrorResponse,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  Server,
  type CallToolRequestParams,
  type CallToolResult,
  type Implementation,
  type InputRequiredResult,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Result, StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { Child } from '../children/child.js';
import type { UnlistedItems } from '../children/child-faces.js';
import { hubErrorCode } from '../errors.js';
import type { Hub } from '../hub.js';
import { withValidTraceContext } from '../observe.js';
import { callerRequestOf, type CallerRequest } from '../calls/caller-request.js';
import { isLoggingLevel } from '../calls/log-levels.js';
import { callEndpointTool, type McpEndpoint } from './endpoint.js';
import { callerCapabilities, decideElicitation, type ElicitationDecision } from '../calls/elicitation.js';
import { withQuestionParams } from '../calls/carry.js';
import { runToolCall } from '../calls/pipeline.js';
import { toolCallOf } from '../calls/tool-call.js';
import { offeredTools } from '../calls/visibility.js';
import { refuseEveryRequest } from './failed-handshake.js';
import { relayedChildError } from '../revisions/relayed-error.js';
import { RequestWake } from './request-wake.js';
import type { SdkExchange } from './sdk-exchange.js';
import type { ServedRevision } from '../revisions/served-revision.js';

/** The `_meta` key of a virtual server's `tools/list` naming the members whose tools are unknown yet. */
export const UNKNOWN_YET_META_KEY = 'mcp-switchyard/unknownYet';

/**
 * `/<name>/mcp`: a transparent proxy of one child, stating what the child shows a client
 * of the caller's revision (its identity, instructions and capabilities), with the
 * allow/deny filter applied and the revision's differences left to the revision. Tools
 * are listed from the Child, never the wire; every other method the caller's revision
 * carries is forwarded and the child's own answer returned.
 */
export class ChildEndpoint implements McpEndpoint {
  readonly answered = answeredAsChild;

  constructor(
    private readonly hub: Hub,
    readonly child: Child,
    /** The request's one wait for the child, on the SDK's road (one endpoint per request there). */
    private readonly wake?: RequestWake,
  ) {}

  server(revision: ServedRevision, exchange?: SdkExchange): Promise<Server> {
    return createChildServer(this.hub, this.child, revision, exchange);
  }

  /**
   * The child's own identity as it last stated it to a client of `revision` (kept in its
   * snapshot while it sleeps); before it was ever seen, its configured name.
   */
  identity(revision?: ServedRevision): Implementation {
    const face = revision === undefined ? undefined : this.child.knownFace(revision.revision);
    return face?.serverInfo ?? this.child.serverInfo ?? { name: this.child.name, version: this.hub.version };
  }

  /** What is left of the request's one wait for the child; a whole start timeout on the plain road. Made once, not per call. */
  readonly #budget = (): AbortSignal => this.wake?.remaining() ?? AbortSignal.timeout(this.child.startTimeoutMs);

  /**
   * A call as the revision delivers it; undefined for a filtered tool, for one the caller's
   * revision is not shown (the child lists it on the revision the hub speaks only), and for
   * one the child does not list while it cannot be asked (it is not up). A tool the child
   * does not list is otherwise the child's to answer. A server whose tools cannot be learnt (it
   * cannot start) is a JSON-RPC error naming it and the cause.
   */
  callTool(revision: ServedRevision, params: CallToolRequestParams, caller: CallerRequest): Promise<CallToolResult | InputRequiredResult | undefined> {
    // Not async where the answer on hiding is at hand (the commonest call): the pipeline's
    // promise is handed on with the one conversion of its errors, no frame of this one's.
    try {
      // A filtered tool is unknown before anything wakes; any other is decided by the caller's revision's face.
      const hidden = this.child.isToolAllowed(params.name) && this.child.hidesTool(revision.revision, params.name, this.#budget);
      if (hidden === true) return Promise.resolve(undefined);
      if (hidden !== false) return this.#callOnceShown(hidden, revision, params, caller);
      return runToolCall(this.hub, toolCallOf({ revision, caller, server: this.child, road: 'server', params, wake: this.wake })).catch(asCallError);
    } catch (error) {
      return Promise.reject(callError(error));
    }
  }

  async #callOnceShown(hidden: Promise<boolean>, revision: ServedRevision, params: CallToolRequestParams, caller: CallerRequest): Promise<CallToolResult | InputRequiredResult | undefined> {
    try {
      if (await hidden) return undefined;
      return await runToolCall(this.hub, toolCallOf({ revision, caller, server: this.child, road: 'server', params, wake: this.wake }));
    } catch (error) {
      throw callError(error);
    }
  }
}

/** A call's failure as the endpoint answers it: the hub's own errors (a server that cannot start) as an internal JSON-RPC error naming the cause. */
function callError(error: unknown): unknown {
  return hubErrorCode(error) === undefined ? error : new ProtocolError(ProtocolErrorCode.InternalError, (error as Error).message);
}

function asCallError(error: unknown): never {
  throw callError(error);
}

/**
 * The server of one request: a child never seen (no snapshot) is woken first, so the
 * endpoint offers what the child offers, and what it shows the caller's revision is read
 * (or asked), all within one wake budget.
 */
async function createChildServer(hub: Hub, child: Child, revision: ServedRevision, exchange: SdkExchange | undefined): Promise<Server> {
  const wake = new RequestWake(child, child.startTimeoutMs);
  const endpoint = new ChildEndpoint(hub, child, wake);
  const failure = await wake.known().then(
    () => undefined,
    (error: unknown) => error ?? new Error('the server could not start'),
  );
  const face = await child.faceFor(revision.revision, () => wake.remaining());
  const instructions = await child.instructionsOf(face);
  const capabilities = deliverable(revision.capabilities(face.capabilities), child);
  const server = new Server(face.serverInfo ?? endpoint.identity(), {
    capabilities,
    ...(instructions !== undefined && { instructions }),
    ...revision.serverOptions,
  });

  const listed = face.lists;
  if (capabilities.tools) {
    server.setRequestHandler('tools/list', async () => {
      const tools = (await offeredTools(child, wake, face)).map((tool) => revision.presentTool(tool));
      // A virtual server cannot list what it has not seen: it says which members that is.
      const unknownYet = child.unknownYet;
      return unknownYet.length === 0 ? { tools } : { tools, _meta: { [UNKNOWN_YET_META_KEY]: [...unknownYet] } };
    });
    server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
      // A filtered tool gets the answer of one that never existed, before anything wakes.
      return callEndpointTool(endpoint, revision, request.params, callerRequestOf(revision, ctx, exchange));
    });
  }

  if (capabilities.resources && listed?.resources !== undefined) server.setRequestHandler('resources/list', () => ({ resources: listed.resources ?? [] }));
  if (capabilities.resources && listed?.resourceTemplates !== undefined) server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: listed.resourceTemplates ?? [] }));
  if (capabilities.prompts && listed?.prompts !== undefined) server.setRequestHandler('prompts/list', () => ({ prompts: listed.prompts ?? [] }));

  // A level kept for the caller (the child is never asked: its level would hold for every
  // caller), whether or not the child declares logging: one that does not sends nothing to hear.
  const logLevel = revision.keepsLogLevel ? exchange?.logLevel : undefined;
  const setLevel = (level: unknown): Record<string, never> => {
    if (!isLoggingLevel(level)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid log level: ${String(level)}`);
    logLevel?.set(level);
    return {};
  };
  if (capabilities.logging && logLevel) server.setRequestHandler('logging/setLevel', (request) => setLevel(request.params.level));

  const relay = relayTo(hub, child, revision, wake, exchange);
  const unlisted = face.unlisted;
  server.fallbackRequestHandler = async (request, ctx) => {
    if (request.method === 'logging/setLevel' && logLevel) return setLevel(request.params?.level);
    if (revision.refuses(request.method)) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
    if (unlisted !== undefined) refuseUnlisted(unlisted, request.method, request.params);
    return relay(ctx, request.method, request.params);
  };
  if (failure !== undefined) refuseEveryRequest(server, failure);
  return server;
}

/**
 * What the hub can deliver of what it would offer: a child that refuses to be watched has its
 * list changes re-listed, but its resource updates cannot be heard, so a caller's listen is
 * not acknowledged for them (the SDK acknowledges only what the capabilities offer).
 */
function deliverable(capabilities: ServerCapabilities, child: Child): ServerCapabilities {
  if (child.watchable || !capabilities.resources?.subscribe) return capabilities;
  const { subscribe: _cannotBeHeard, ...resources } = capabilities.resources;
  return { ...capabilities, resources };
}

/**
 * A prompt or resource the caller's face does not list, though the revision spoken with the
 * child does, is answered as the child answers a client of the caller's revision: not found.
 */
function refuseUnlisted(unlisted: UnlistedItems, method: string, params: Record<string, unknown> | undefined): void {
  if (method === 'prompts/get' && typeof params?.name === 'string' && unlisted.prompts?.includes(params.name)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${params.name} not found`);
  }
  // Any request about a resource names it by `params.uri` (reading it, and whatever else the caller's revision has).
  if (typeof params?.uri === 'string' && unlisted.resources?.includes(params.uri)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${params.uri}`);
  }
}

/** Any result, as the child sent it: the caller's revision checks what it delivers. */
const ANY_RESULT: StandardSchemaV1<Result> = { '~standard': { version: 1, vendor: 'mcp-hub', validate: (value) => ({ value: value as Result }) } };

/**
 * Relays a request other than a tool call: the child woken (within the request's one
 * budget), the caller's cancellation passed on, the child's identity dropped from its
 * answer, and a child's question relayed by the same decision as a tool call's. One that
 * cannot be forwarded fails the request, since there is no tool result to tell it in.
 */
function relayTo(hub: Hub, child: Child, revision: ServedRevision, wake: RequestWake, exchange: SdkExchange | undefined) {
  return async (ctx: ServerContext, method: string, params: Record<string, unknown> | undefined): Promise<Result> => {
    const request = callerRequestOf(revision, ctx, exchange);
    const capabilities = callerCapabilities(request);
    let decision: ElicitationDecision | undefined;
    await wake.up();
    const answer = await child
      .withClient((client) => {
        decision = decideElicitation(revision, capabilities, child.view);
        const asked = params === undefined ? params : withQuestionParams(withValidTraceContext(params as { _meta?: Record<string, unknown> }), request, decision, capabilities);
        return client.request({ method, ...(asked !== undefined && { params: asked }) }, ANY_RESULT, { signal: request.signal, allowInputRequired: true });
      })
      .catch((error: unknown) => {
        const childError = childProtocolError(error);
        if (!childError) throw error;
        const refusal = relayedChildError(revision, childError, method);
        // The caller's revision answers this failure with a result.
        if (!ProtocolError.isInstance(refusal)) return refusal;
        if (exchange && refusal.code === ProtocolErrorCode.MethodNotFound) exchange.methodNotFound = true;
        throw refusal;
      });
    if (!isInputRequiredResult(answer)) return child.wire?.withoutIdentity(answer) ?? answer;
    const question = hub.questions.relay(answer, revision, decision as ElicitationDecision, request, child.view);
    if (typeof question === 'string') throw new ProtocolError(ProtocolErrorCode.InternalError, question);
    return question;
  };
}

/**
 * The child's own JSON-RPC error in `error`: as the SDK client raises it, or in the body of
 * an HTTP error answer (the SDK's HTTP client reads a JSON-RPC error out of a 400 only, so
 * a remote child's 404 method-not-found arrives as an HTTP error carrying it). A method
 * the revision spoken with the child does not have is one the child has not, as it would say.
 */
function childProtocolError(error: unknown): ProtocolError | undefined {
  if (ProtocolError.isInstance(error)) return error;
  if (SdkError.isInstance(error) && error.code === SdkErrorCode.MethodNotSupportedByProtocolVersion) return new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found');
  if (!SdkHttpError.isInstance(error)) return undefined;
  const text = (error.data as { text?: unknown } | undefined)?.text;
  if (typeof text !== 'string') return undefined;
  try {
    const answer: unknown = JSON.parse(text);
    if (!isJSONRPCErrorResponse(answer)) return undefined;
    return new ProtocolError(answer.error.code, answer.error.message, answer.error.data);
  } catch {
    return undefined;
  }
}

/**
 * A child endpoint's HTTP answer on `revision`: the child's method-not-found, which the
 * handler answers in band, with the status the revision answers a method it has no
 * handler for (`methodNotFoundStatus`).
 */
export function answeredAsChild(revision: ServedRevision, exchange: SdkExchange, response: Response): Response {
  if (!exchange.methodNotFound || response.status !== 200 || revision.methodNotFoundStatus === 200) return response;
  if (!response.headers.get('content-type')?.startsWith('application/json')) return response;
  return new Response(response.body, { status: revision.methodNotFoundStatus, headers: response.headers });
}
