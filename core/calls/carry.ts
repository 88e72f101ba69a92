import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  isInputRequiredResult,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  type CallToolRequestParams,
  type ClientCapabilities,
  type InputRequiredResult,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  type ProgressToken,
} from '@modelcontextprotocol/server';
import { CallCancellation } from '../children/client/call-cancel.js';
import type { ChildConnection } from '../children/child-type.js';
import type { Hub } from '../hub.js';
import type { ToolCallNotification } from './interceptors.js';
import type { CallerRequest } from './caller-request.js';
import { callerCapabilities, decideElicitation, type ElicitationDecision } from './elicitation.js';
import { relayedChildError } from '../revisions/relayed-error.js';
import { logPasses } from './log-levels.js';
import { toolError } from './tool-results.js';
import { errorCodeOf, sending } from './observation.js';
import type { ToolCall } from './tool-call.js';
import { errorMessage } from '../errors.js';

/** What carrying a call to its child needs of the hub: the interceptors during the call, the timeout and the drain, the question relay. */
export type CallingHub = Pick<Hub, 'identity' | 'log' | 'interceptors' | 'settings' | 'drain' | 'questions'>;

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
export function carryToolCall(hub: CallingHub, call: ToolCall, tool: Tool): Promise<CallToolResult | InputRequiredResult> {
  // The commonest call without an async frame of its own: the child up (its connection at
  // hand), no log relayed during the call, the plain road open. Anything else waits where
  // it has to, in `carryWaiting`, which decides the same things.
  if (call.caller.logLevel !== undefined) return carryWaiting(hub, call, tool, undefined);
  let entered: ChildConnection | Promise<ChildConnection>;
  try {
    entered = call.server.enterCall();
  } catch (error) {
    return failedNow(hub, call, error);
  }
  if (entered instanceof Promise) return carryWaiting(hub, call, tool, entered);
  const connection = entered;
  const { server: child, caller: request, event } = call;
  let decision: ElicitationDecision;
  let sent: CallToolRequestParams;
  let timeoutMs: number;
  let cancel: PlainCancel | undefined;
  let answer: Promise<CallToolResult | InputRequiredResult | undefined>;
  try {
    decision = decideElicitation(call.revision, callerCapabilities(request, call.sessionCapabilities), child.view);
    if (!plainCarriageOpen(connection, tool, request, decision)) return carryWaiting(hub, call, tool, connection);
    call.sent = true;
    sent = event ? sending(event, call.params) : call.params;
    timeoutMs = child.callTimeoutMs ?? hub.settings.callTimeoutMs;
    cancel = new PlainCancel(request, timeoutMs);
    answer = connection.plainToolCall(sent, cancel);
  } catch (error) {
    cancel?.stop();
    child.leaveCall();
    return failedNow(hub, call, error);
  }
  const running = cancel;
  return answer.then(
    (plain) => {
      running.stop();
      // The plain road turned out closed for this call (nothing reached the server): the SDK's.
      if (plain === undefined) return sdkAfterPlain(hub, call, tool, connection, sent, decision, timeoutMs);
      child.leaveCall();
      return carried(hub, call, plain, decision);
    },
    (error: unknown) => {
      running.stop();
      child.leaveCall();
      return carryFailure(hub, call, running.timedOut ?? error);
    },
  );
}

/**
 * The carry where something is waited for: the child's start, a log relayed, the SDK's
 * road. `entered` is the connection `enterCall` gave (counted), or its promise, or nothing
 * yet (then entered here).
 */
async function carryWaiting(hub: CallingHub, call: ToolCall, tool: Tool, entered: ChildConnection | Promise<ChildConnection> | undefined): Promise<CallToolResult | InputRequiredResult> {
  const { server: child, revision, caller: request, sessionCapabilities, event } = call;
  const capabilities = callerCapabilities(request, sessionCapabilities);
  let decision: ElicitationDecision | undefined;
  let result: CallToolResult | InputRequiredResult;
  const intercept = duringCall(hub, call, tool);
  const logs = request.logLevel === undefined ? undefined : new RelayedLogs(request, request.logLevel, intercept);
  try {
    const connection = await (entered ?? child.enterCall());
    const unhear = logs && child.hearLogs((message) => logs.relay(message));
    try {
      // Decided once the child is up: what it can ask depends on the revision it speaks.
      decision = decideElicitation(revision, capabilities, child.view);
      call.sent = true;
      const sent = withLogLevel(event ? sending(event, call.params) : call.params, request);
      const timeoutMs = child.callTimeoutMs ?? hub.settings.callTimeoutMs;
      let plain: CallToolResult | InputRequiredResult | undefined;
      if (plainCarriageOpen(connection, tool, request, decision)) {
        // The plain road, with the SDK road's timeout and cancellation and the same errors;
        // undefined when it turns out closed for this call (nothing reached the server).
        const cancel = new PlainCancel(request, timeoutMs);
        try {
          plain = await connection.plainToolCall(sent, cancel);
        } catch (error) {
          throw cancel.timedOut ?? error;
        } finally {
          cancel.stop();
        }
      }
      result = plain ?? (await sdkCall(timeoutMs, connection, sent, request, decision, capabilities, intercept));
    } finally {
      unhear?.();
      child.leaveCall();
    }
    await logs?.sent;
  } catch (error) {
    return carryFailure(hub, call, error);
  }
  return carried(hub, call, result, decision);
}

/** The SDK's road after the plain one turned out closed, on the connection entered for it (handed back here). */
async function sdkAfterPlain(
  hub: CallingHub,
  call: ToolCall,
  tool: Tool,
  connection: ChildConnection,
  sent: CallToolRequestParams,
  decision: ElicitationDecision,
  timeoutMs: number,
): Promise<CallToolResult | InputRequiredResult> {
  let result: CallToolResult | InputRequiredResult;
  try {
    try {
      result = await sdkCall(timeoutMs, connection, sent, call.caller, decision, callerCapabilities(call.caller, call.sessionCapabilities), duringCall(hub, call, tool));
    } finally {
      call.server.leaveCall();
    }
  } catch (error) {
    return carryFailure(hub, call, error);
  }
  return carried(hub, call, result, decision);
}

/** What interceptors make of a notification during the call, when any listens. */
function duringCall(hub: CallingHub, call: ToolCall, tool: Tool): ((notification: ToolCallNotification) => Promise<ToolCallNotification | undefined>) | undefined {
  return hub.interceptors.duringCall ? (notification: ToolCallNotification) => hub.interceptors.runDuringCall(hub, call, tool, notification) : undefined;
}

/**
 * The plain road's one cancellation for the caller's and the timeout, with no AbortSignal
 * unless the road asks for one; the timeout's error is made only when it fires (a stack is
 * costly).
 */
class PlainCancel extends CallCancellation {
  timedOut: Error | undefined = undefined;
  readonly #timer: NodeJS.Timeout;
  readonly #stopListening: () => void;

  constructor(request: CallerRequest, timeoutMs: number) {
    super();
    this.#timer = setTimeout(() => {
      this.timedOut = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs });
      this.abort(this.timedOut);
    }, timeoutMs);
    this.#stopListening = onCancel(request, (reason) => this.abort(reason));
  }

  /** The call is over: no timeout, and the caller's cancellation no longer heard. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#stopListening();
  }
}

/** The carried result without the child's server identity, or the child's question relayed when the decision allows. */
function carried(hub: CallingHub, call: ToolCall, result: CallToolResult | InputRequiredResult, decision: ElicitationDecision): CallToolResult | InputRequiredResult {
  if (!isInputRequiredResult(result)) return call.server.wire?.withoutIdentity(result) ?? result;
  const question = hub.questions.relay(result, call.revision, decision, call.caller, call.server.view);
  return typeof question === 'string' ? toolError(`Tool call failed: ${question}`) : question;
}

/**
 * A carry that failed: the child's own protocol error thrown as it came (in the terms of
 * the caller's revision), any other failure a tool error that names the server.
 */
function carryFailure(hub: CallingHub, call: ToolCall, error: unknown): CallToolResult {
  const { server: child, revision, event } = call;
  if (ProtocolError.isInstance(error)) {
    const relayed = relayedChildError(revision, error, 'tools/call');
    if (ProtocolError.isInstance(relayed)) throw relayed;
    // The caller's revision tells this failure as a tool error: still the child's protocol error.
    call.outcome = 'protocol_error';
    if (event) event.errorCode = error.code;
    return relayed;
  }
  // Never sent: the server could not be woken (down, unauthorized, failed start).
  call.outcome = hub.drain.cut ? 'drained' : !call.sent ? 'unavailable' : SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout ? 'timeout' : 'protocol_error';
  if (event) event.errorCode = errorCodeOf(error);
  const why = hub.drain.cut ? `the hub is shutting down and the call did not finish within DRAIN_TIMEOUT_MS (${hub.settings.drainTimeoutMs} ms)` : failureText(error);
  return toolError(`Tool call failed: server "${child.name}": ${why}`);
}

/** `carryFailure` as a settled promise, for a failure before anything was awaited. */
function failedNow(hub: CallingHub, call: ToolCall, error: unknown): Promise<CallToolResult> {
  try {
    return Promise.resolve(carryFailure(hub, call, error));
  } catch (thrown) {
    return Promise.reject(thrown);
  }
}

/**
 * The child's log messages during one call, passed to the caller in order, at the level it
 * set and above (see `Child.hearLogs` for which messages are the call's), before the
 * result, through the interceptors as progress is (a guardrail scans them).
 */
class RelayedLogs {
  sent: Promise<void> = Promise.resolve();

  constructor(
    private readonly request: CallerRequest,
    private readonly level: LoggingLevel,
    private readonly intercept: ((notification: ToolCallNotification) => Promise<ToolCallNotification | undefined>) | undefined,
  ) {}

  relay(message: LoggingMessageNotificationParams): void {
    if (!logPasses(message.level, this.level)) return;
    const notification = { method: 'notifications/message', params: message };
    this.sent = this.sent
      .then(async () => {
        const passed = this.intercept ? await this.intercept(notification) : notification;
        if (passed) await this.request.notify({ method: 'notifications/message', params: passed.params as LoggingMessageNotificationParams });
      })
      .catch(() => undefined);
  }
}

/**
 * A call's params with the caller's log level asked per request (a child on a revision
 * whose requests carry their level, which sends no log message for a request without
 * one); a child of an earlier revision reads no such key and logs as it does.
 */
function withLogLevel(params: CallToolRequestParams, request: CallerRequest): CallToolRequestParams {
  if (request.logLevel === undefined || params._meta?.[LOG_LEVEL_META_KEY] !== undefined) return params;
  return { ...params, _meta: { ...params._meta, [LOG_LEVEL_META_KEY]: request.logLevel } };
}

/**
 * A request's params as the child gets them when it may ask the caller something: the
 * caller's elicitation capability declared (and nothing else it could ask), and what a
 * retry carries back (the answers, the child's own state) passed on untouched.
 */
export function withQuestionParams<P extends { _meta?: Record<string, unknown> }>(params: P, request: CallerRequest, decision: ElicitationDecision, capabilities: ClientCapabilities | undefined): P {
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
function plainCarriageOpen(
  connection: ChildConnection,
  tool: Tool,
  request: CallerRequest,
  decision: ElicitationDecision,
): connection is ChildConnection & Required<Pick<ChildConnection, 'plainToolCall'>> {
  return (
    connection.plainToolCall !== undefined &&
    request.meta?.progressToken === undefined &&
    request.logLevel === undefined &&
    !decision.forward &&
    request.answers === undefined &&
    tool.outputSchema === undefined
  );
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
  return isInputRequiredResult(result) ? result : result;
}

/**
 * A failure's text for the caller, bounded (an HTTP error can quote a whole page) and
 * naming the HTTP status the SDK keeps beside its message.
 */
export function failureText(error: unknown): string {
  const text = errorMessage(error);
  const bounded = text.length > FAILURE_TEXT_CHARS ? `${text.slice(0, FAILURE_TEXT_CHARS)}…` : text;
  const status = SdkHttpError.isInstance(error) ? (error.data as { status?: unknown } | undefined)?.status : undefined;
  return typeof status === 'number' ? `HTTP ${status}: ${bounded}` : bounded;
}
