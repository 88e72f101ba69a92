import type { CallToolRequestParams, CallToolResult, Tool } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  isInputRequiredResult,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type ClientCapabilities,
  type InputRequiredResult,
  type ProgressToken,
} from '@modelcontextprotocol/server';
import type { ChildConnection } from '../children/child-type.js';
import type { Child } from '../children/child.js';
import type { Hub } from '../hub.js';
import { observe, type ToolCallEvent, type ToolCallOutcome, withValidTraceContext } from '../observe.js';
import type { CallerRequest } from './caller-request.js';
import { callerCapabilities, decideElicitation, type ElicitationDecision } from './elicitation.js';
import type { ServedRevision } from './served-revision.js';
import { lookupTool } from './known-tools.js';
import type { RequestWake } from './request-wake.js';
import { toolError } from './tool-results.js';

export interface ForwardContext {
  /** The revision the caller speaks. */
  revision: ServedRevision;
  /** The caller's request: progress, cancellation, `_meta`, and a retry's answers. */
  request: CallerRequest;
  /** What a stdio session declared when it opened; per-request capabilities win. */
  sessionCapabilities?: ClientCapabilities;
  /** The request's one wait for the child, when its road made one (the SDK's road of `/<name>/mcp`). */
  wake?: RequestWake;
  /** A tool the child does not list is the child's to answer while it is up (`/<name>/mcp`, a transparent proxy). */
  askUnlisted?: boolean;
}

/** How much of a failure's text reaches the caller: enough to read, never a whole page. */
const FAILURE_TEXT_CHARS = 300;

/**
 * Calls a tool on a child for a caller, by the name the caller gave: looks the tool up
 * (a filtered name refused without waking anything; a server never seen woken to learn
 * its tools), wakes the child (which does not idle out during the call), passes progress
 * back to the caller in order and before the result (each update resets the timeout),
 * passes the caller's cancellation on, and relays a child's question when the
 * elicitation decision allows. The child's own protocol error is thrown as it came, so
 * the caller sees the same error; any other failure becomes a tool error that names the
 * server, never a hung request. The result comes back as the caller's revision delivers
 * it, without the child's server identity.
 *
 * Undefined when the server has no such tool for callers (unknown, or kept out by its
 * filter: the same answer, each endpoint words it); a server whose tools cannot be
 * learnt (it cannot start) throws the start's HubError. Observers hear every call, these
 * refusals included, with its outcome.
 */
export async function forwardToolCall(
  hub: Hub,
  child: Child,
  params: CallToolRequestParams,
  context: ForwardContext,
): Promise<CallToolResult | InputRequiredResult | undefined> {
  recordOnAccess(child, params, context);
  params = withValidTraceContext(params);
  if (!observe.toolCallStart.active && !observe.toolCallSent.active && !observe.toolCallEnd.active) {
    const tool = await lookupTool(child, params.name, context);
    if (typeof tool === 'string') return undefined;
    return 'withheld' in tool ? toolError(tool.withheld) : carryToolCall(hub, child, tool, params, context, undefined);
  }
  const event = toolCallEvent(hub, child, params, context);
  observe.toolCallStart.publish(event);
  try {
    let tool: Awaited<ReturnType<typeof lookupTool>>;
    try {
      tool = await lookupTool(child, params.name, context);
    } catch (error) {
      event.outcome = 'unavailable';
      throw error;
    }
    if (typeof tool === 'string') {
      event.outcome = tool === 'denied' ? 'denied' : 'unknown_tool';
      return undefined;
    }
    if ('withheld' in tool) {
      event.outcome = 'refused';
      return toolError(tool.withheld);
    }
    // A name the server does not list, asked of the server: the answer is the server's, the call an unknown tool's.
    if (child.findTool(params.name) !== tool) event.outcome = 'unknown_tool';
    const result = await carryToolCall(hub, child, tool, params, context, event);
    event.result = result;
    event.outcome ??= answeredOutcome(result);
    return result;
  } catch (error) {
    event.outcome ??= 'protocol_error';
    event.errorCode = errorCodeOf(error);
    throw error;
  } finally {
    event.endedAt = performance.now();
    observe.toolCallEnd.publish(event);
  }
}

/**
 * A call the hub refuses before it looks at the server's tools (a `hub: false` server
 * through `/hub`): observers hear it as any other call, with `outcome`.
 */
export function refuseToolCall(hub: Hub, child: Child, params: CallToolRequestParams, context: ForwardContext, outcome: ToolCallOutcome): void {
  recordOnAccess(child, params, context);
  if (!observe.toolCallStart.active && !observe.toolCallEnd.active) return;
  const event = toolCallEvent(hub, child, params, context);
  observe.toolCallStart.publish(event);
  event.outcome = outcome;
  event.endedAt = performance.now();
  observe.toolCallEnd.publish(event);
}

/** The request's access record names the server and tool a call went to, whatever became of it. */
function recordOnAccess(child: Child, params: CallToolRequestParams, context: ForwardContext): void {
  const access = context.request.access;
  if (!access) return;
  access.server = child.name;
  access.tool = params.name;
}

/** The caller requests observers heard as a configured server's call, so that `/hub`'s `call_tool` is not heard again. */
const heardAsServerCall = new WeakSet<CallerRequest>();

/** Whether observers heard this request's call as a configured server's `ToolCallEvent`. */
export function heardAsToolCall(request: CallerRequest): boolean {
  return heardAsServerCall.has(request);
}

function toolCallEvent(hub: Hub, child: Child, params: CallToolRequestParams, context: ForwardContext): ToolCallEvent {
  heardAsServerCall.add(context.request);
  return {
    hub: hub.identity,
    child: child.view,
    tool: params.name,
    revision: context.revision.revision,
    clientId: context.request.clientId,
    params,
    request: context.request,
    access: context.request.access,
    startedAt: performance.now(),
    forwardMeta: {},
    sentAt: undefined,
    outcome: undefined,
    errorCode: undefined,
    result: undefined,
    endedAt: undefined,
  };
}

async function carryToolCall(
  hub: Hub,
  child: Child,
  tool: Tool,
  params: CallToolRequestParams,
  { revision, request, sessionCapabilities }: ForwardContext,
  event: ToolCallEvent | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const capabilities = callerCapabilities(request, sessionCapabilities);
  let decision: ElicitationDecision | undefined;
  let result: CallToolResult | InputRequiredResult;
  try {
    result = await child.withConnection(async (connection) => {
      // Decided once the child is up: what it can ask depends on the revision it speaks.
      decision = decideElicitation(revision, capabilities, child.view);
      const sent = event ? sending(event, params) : params;
      const timeoutMs = child.callTimeoutMs ?? hub.settings.callTimeoutMs;
      return (
        (plainRoadOpen(connection, tool, request, decision) ? await plainCall(timeoutMs, connection, sent, request) : undefined) ??
        (await sdkCall(timeoutMs, connection, sent, request, decision, capabilities))
      );
    });
  } catch (error) {
    if (ProtocolError.isInstance(error)) throw error;
    if (event) {
      // Never sent: the server could not be woken (down, unauthorized, failed start).
      event.outcome = event.sentAt === undefined ? 'unavailable' : SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout ? 'timeout' : 'protocol_error';
      event.errorCode = errorCodeOf(error);
    }
    const why = hub.drain.cut ? `the hub is shutting down and the call did not finish within DRAIN_TIMEOUT_MS (${hub.settings.drainTimeoutMs} ms)` : failureText(error);
    return toolError(`Tool call failed: server "${child.name}": ${why}`);
  }
  if (!isInputRequiredResult(result)) return revision.presentResult(tool, child.wire?.withoutIdentity(result) ?? result);
  const question = hub.questions.relay(result, revision, decision as ElicitationDecision, request, child.view);
  return typeof question === 'string' ? toolError(`Tool call failed: ${question}`) : question;
}

/** The call is going out: observers may add to its `_meta` (a trace context). */
function sending(event: ToolCallEvent, params: CallToolRequestParams): CallToolRequestParams {
  event.sentAt = performance.now();
  observe.toolCallSent.publish(event);
  const added = event.forwardMeta;
  if (Object.keys(added).length === 0) return params;
  // A trace context the hub adds replaces the caller's whole: its tracestate belongs to the caller's parent, not to the hub's span.
  const { traceparent: _traceparent, tracestate: _tracestate, ...callers } = params._meta ?? {};
  return { ...params, _meta: { ...('traceparent' in added ? callers : params._meta), ...added } };
}

/** The outcome of a call the tool answered: its own error, or a result. */
export function answeredOutcome(result: CallToolResult | InputRequiredResult): 'tool_error' | 'ok' {
  return !isInputRequiredResult(result) && result.isError === true ? 'tool_error' : 'ok';
}

/** The code a failed call's error carries (a JSON-RPC or a hub error code), for observers. */
export function errorCodeOf(error: unknown): number | string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' || typeof code === 'string' ? code : undefined;
}

/**
 * A request's params as the child gets them when it may ask the caller something: the
 * caller's elicitation capability declared (and nothing else it could ask), and what a
 * retry carries back (the answers, the child's own state) passed on untouched.
 */
export function withQuestionParams<P extends { _meta?: Record<string, unknown> }>(
  params: P,
  request: CallerRequest,
  decision: ElicitationDecision,
  capabilities: ClientCapabilities | undefined,
): P {
  return {
    ...params,
    ...(decision.forward && { _meta: { ...params._meta, [CLIENT_CAPABILITIES_META_KEY]: { elicitation: capabilities?.elicitation } } }),
    ...request.answers,
  };
}

/**
 * The one test for the road toward the child: the connection has a plain road, and the
 * call needs nothing only the SDK client gives: no progress to pass back, no question
 * the caller could answer, no retry's answers, no output schema to check.
 */
function plainRoadOpen(connection: ChildConnection, tool: Tool, request: CallerRequest, decision: ElicitationDecision): connection is ChildConnection & Required<Pick<ChildConnection, 'plainToolCall'>> {
  return (
    connection.plainToolCall !== undefined &&
    request.meta?.progressToken === undefined &&
    !decision.forward &&
    request.answers === undefined &&
    tool.outputSchema === undefined
  );
}

/**
 * The plain road, with the SDK road's timeout and cancellation and the same errors.
 * Undefined when the road turns out closed for this call (nothing reached the server).
 */
async function plainCall(
  timeoutMs: number,
  connection: ChildConnection & Required<Pick<ChildConnection, 'plainToolCall'>>,
  params: CallToolRequestParams,
  request: CallerRequest,
): Promise<CallToolResult | InputRequiredResult | undefined> {
  // One controller for the caller's cancellation and the timeout: AbortSignal.any costs
  // more than the call. The timeout's error is made only when it fires (a stack is costly).
  const call = new AbortController();
  let timedOut: Error | undefined;
  const timer = setTimeout(() => {
    timedOut = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs });
    call.abort(timedOut);
  }, timeoutMs);
  const stopListening = onCancel(request, (reason) => call.abort(reason));
  try {
    return await connection.plainToolCall(params, call.signal);
  } catch (error) {
    throw timedOut ?? error;
  } finally {
    clearTimeout(timer);
    stopListening();
  }
}

/** Hears the caller's cancellation (without an AbortSignal of its own where the caller offers that); returns the unsubscribe. */
function onCancel(request: CallerRequest, listener: (reason: unknown) => void): () => void {
  if (request.onCancel) return request.onCancel(listener);
  const signal = request.signal;
  const abort = (): void => listener(signal.reason);
  signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}

async function sdkCall(
  timeoutMs: number,
  connection: ChildConnection,
  params: CallToolRequestParams,
  request: CallerRequest,
  decision: ElicitationDecision,
  capabilities: ClientCapabilities | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const progressToken = request.meta?.progressToken as ProgressToken | undefined;
  // Progress is passed on in order, and the result waits for the last of it.
  let progressSent: Promise<void> = Promise.resolve();
  const result = await connection.client.callTool(withQuestionParams(params, request, decision, capabilities), {
    timeout: timeoutMs,
    resetTimeoutOnProgress: true,
    signal: request.signal,
    allowInputRequired: true,
    onprogress:
      progressToken === undefined
        ? undefined
        : (progress) => {
            const notification = { method: 'notifications/progress' as const, params: { ...progress, progressToken } };
            progressSent = progressSent.then(() => request.notify(notification)).catch(() => undefined);
          },
  });
  await progressSent;
  return isInputRequiredResult(result) ? result : (result as CallToolResult);
}

/**
 * A failure's text for the caller, bounded (an HTTP error can quote a whole page) and
 * naming the HTTP status the SDK keeps beside its message.
 */
export function failureText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const bounded = text.length > FAILURE_TEXT_CHARS ? `${text.slice(0, FAILURE_TEXT_CHARS)}…` : text;
  const status = SdkHttpError.isInstance(error) ? (error.data as { status?: unknown } | undefined)?.status : undefined;
  return typeof status === 'number' ? `HTTP ${status}: ${bounded}` : bounded;
}
