import { isInputRequiredResult, type CallToolRequestParams, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { Hub } from '../hub.js';
import { observe, type ToolCallEvent } from '../observe.js';
import type { ToolCall } from './tool-call.js';

/**
 * The observation stage, at both ends of the pipeline: the access record names the server
 * and tool (and what made the call on `/hub`), whatever became of it; observers, when
 * any listen, hear the call start, go out and end with its outcome. Without observers
 * nothing is made.
 */
export function observeStart(hub: Pick<Hub, 'identity'>, call: ToolCall): void {
  const access = call.caller.access;
  if (access) {
    access.server = call.server.name;
    access.tool = call.params.name;
    if (call.via !== undefined) access.via = call.via;
  }
  if (!observe.toolCallStart.active && !observe.toolCallSent.active && !observe.toolCallEnd.active) return;
  if (call.hubCall) call.hubCall.heardAsServerCall = true;
  const event: ToolCallEvent = {
    hub: hub.identity,
    child: call.server.view,
    tool: call.params.name,
    revision: call.revision.revision,
    clientId: call.caller.clientId,
    params: call.params,
    request: call.caller,
    access,
    startedAt: performance.now(),
    virtual: undefined,
    forwardMeta: {},
    sentAt: undefined,
    outcome: undefined,
    errorCode: undefined,
    result: undefined,
    endedAt: undefined,
    resultBytes: undefined,
  };
  call.event = event;
  call.caller.observed?.(event);
  observe.toolCallStart.publish(event);
}

/**
 * A call of a virtual server's tool resolved to an underlying server's: the access record
 * and the observed event name the underlying server and tool, and the virtual ones beside.
 */
export function observeRouted(call: ToolCall, virtualServer: Child, virtualTool: string): void {
  const access = call.caller.access;
  if (access) {
    access.virtualServer = virtualServer.name;
    access.virtualTool = virtualTool;
    access.server = call.server.name;
    access.tool = call.params.name;
  }
  const event = call.event;
  if (!event) return;
  event.virtual = { server: virtualServer.view, tool: virtualTool };
  event.child = call.server.view;
  event.tool = call.params.name;
}

/** The end of an observed call, with the outcome the pipeline set. */
export function observeEnd(call: ToolCall, result: CallToolResult | InputRequiredResult | undefined, error?: unknown): void {
  const event = call.event;
  if (!event) return;
  event.outcome = call.outcome;
  if (error !== undefined) event.errorCode ??= errorCodeOf(error);
  else event.result = result;
  event.endedAt = performance.now();
  observe.toolCallEnd.publish(event);
}

/** The call is going out: observers may add to its `_meta` (a trace context). */
export function sending(event: ToolCallEvent, params: CallToolRequestParams): CallToolRequestParams {
  event.sentAt = performance.now();
  observe.toolCallSent.publish(event);
  const added = event.forwardMeta;
  if (!hasOwnKeys(added)) return params;
  // A trace context the hub adds replaces the caller's whole: its tracestate belongs to the caller's parent, not to the hub's span.
  const { traceparent: _traceparent, tracestate: _tracestate, ...callers } = params._meta ?? {};
  return { ...params, _meta: { ...('traceparent' in added ? callers : params._meta), ...added } };
}

/** Whether an object has a key of its own, without the array of them `Object.keys` makes (this runs on every call). */
function hasOwnKeys(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return true;
  return false;
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
