import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  isInputRequiredResult,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type CallToolRequestParams,
  type ClientCapabilities,
  type InputRequiredResult,
  type ProgressToken,
} from '@modelcontextprotocol/server';
import { CallCancellation } from '../children/client/call-cancel.js';
import type { ChildConnection } from '../children/child-type.js';
import type { Hub } from '../hub.js';
import type { ToolCallNotification } from './interceptors.js';
import type { CallerRequest } from './caller-request.js';
import { callerCapabilities, decideElicitation, type ElicitationDecision } from './elicitation.js';
import { relayedChildError } from '../revisions/relayed-error.js';
import { toolError } from './tool-results.js';
import { errorCodeOf, sending } from './observation.js';
import type { ToolCall } from './tool-call.js';

/** How much of a failure's text reaches the caller: enough to read, never a whole page. */
const FAILURE_TEXT_CHARS = 300;

/**
 * The carry stage: wakes the child (which does not idle out during the call), sends the
 * call on the connection's plain road when it needs nothing only the SDK client gives,
 * else on the SDK's (progress passed back to the caller in order and before the result,
 * each update resetting the timeout), passes the caller's cancellation on, and relays a
 * child's question when the elicitation decision allows. The child's own protocol error
 * is thrown as it came, so the caller sees the same error (in the terms of the caller's
 * revision, where the child spoke another: `relayedChildError`); any other failure becomes a
 * tool error that names the server, never a hung request. The result comes back without
 * the child's server identity, not yet presented for the caller's revision.
 */
export async function carryToolCall(hub: Hub, call: ToolCall, tool: Tool): Promise<CallToolResult | InputRequiredResult> {
  const { server: child, revision, caller: request, sessionCapabilities, event } = call;
  const capabilities = callerCapabilities(request, sessionCapabilities);
  let decision: ElicitationDecision | undefined;
  let result: CallToolResult | InputRequiredResult;
  try {
    result = await child.withConnection(async (connection) => {
      // Decided once the child is up: what it can ask depends on the revision it speaks.
      decision = decideElicitation(revision, capabilities, child.view);
      call.sent = true;
      const sent = event ? sending(event, call.params) : call.params;
      const timeoutMs = child.callTimeoutMs ?? hub.settings.callTimeoutMs;
      return (
        (plainCarriageOpen(connection, tool, request, decision) ? await plainCall(timeoutMs, connection, sent, request) : undefined) ??
        (await sdkCall(timeoutMs, connection, sent, request, decision, capabilities, hub.interceptors.duringCall ? (notification) => hub.interceptors.runDuringCall(hub, call, tool, notification) : undefined))
      );
    });
  } catch (error) {
    if (ProtocolError.isInstance(error)) {
      const relayed = relayedChildError(revision, error, 'tools/call');
      if (ProtocolError.isInstance(relayed)) throw relayed;
      // The caller's revision tells this failure as a tool error: still the child's protocol error.
      call.outcome = 'protocol_error';
      if (event) event.errorCode = error.code;
      return relayed;
    }
    // Never sent: the server could not be woken (down, unauthorized, failed start).
    call.outcome = hub.drain.cut
      ? 'drained'
      : !call.sent
        ? 'unavailable'
        : SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout
          ? 'timeout'
          : 'protocol_error';
    if (event) event.errorCode = errorCodeOf(error);
    const why = hub.drain.cut ? `the hub is shutting down and the call did not finish within DRAIN_TIMEOUT_MS (${hub.settings.drainTimeoutMs} ms)` : failureText(error);
    return toolError(`Tool call failed: server "${child.name}": ${why}`);
  }
  if (!isInputRequiredResult(result)) return child.wire?.withoutIdentity(result) ?? result;
  const question = hub.questions.relay(result, revision, decision as ElicitationDecision, request, child.view);
  return typeof question === 'string' ? toolError(`Tool call failed: ${question}`) : question;
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
function plainCarriageOpen(connection: ChildConnection, tool: Tool, request: CallerRequest, decision: ElicitationDecision): connection is ChildConnection & Required<Pick<ChildConnection, 'plainToolCall'>> {
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
  // One cancellation for the caller's and the timeout, with no AbortSignal unless the road
  // asks for one. The timeout's error is made only when it fires (a stack is costly).
  const call = new CallCancellation();
  let timedOut: Error | undefined;
  const timer = setTimeout(() => {
    timedOut = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs });
    call.abort(timedOut);
  }, timeoutMs);
  const stopListening = onCancel(request, (reason) => call.abort(reason));
  try {
    return await connection.plainToolCall(params, call);
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
  /** What interceptors make of a notification on its way to the caller (undefined: dropped). */
  intercept: ((notification: ToolCallNotification) => Promise<ToolCallNotification | undefined>) | undefined,
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
            progressSent = progressSent
              .then(async () => {
                if (!intercept) return request.notify(notification);
                const passed = await intercept(notification);
                // The caller's token is its own: no interceptor changes what it matches on.
                if (passed) await request.notify({ method: 'notifications/progress', params: { ...passed.params, progressToken } as typeof notification.params });
              })
              .catch(() => undefined);
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
