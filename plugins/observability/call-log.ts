import type { FastifyBaseLogger } from 'fastify';
import { traceContextOf, type HubToolCallEvent, type ToolCallEvent } from '../../core/plugin/observe.js';

/** A tool name as long as MCP allows is 128 characters; a caller's made-up one is cut here. */
const MAX_TOOL_CHARS = 256;

/** The trace a call belongs to and its span (the hub's, when it traces). */
export interface TraceIds {
  traceId: string;
  spanId?: string;
}

/** A tool call as the log tells it: a configured server's (`ToolCallEvent`) or one of `/hub`'s own tools (`hub`). */
export interface LoggedCall {
  server: string;
  event: ToolCallEvent | HubToolCallEvent;
}

/**
 * What the log says of one tool call: who called what on which server, on which
 * revision, how long it took, how it ended and in which trace. Arguments and results
 * are not among them (they can hold anything a person typed); the caller is its client
 * id, or `api-token:<id>` for an API token, never the bearer itself. These are fields,
 * not a line, so that they can go on whatever line the request already has.
 */
export function callLogFields({ server, event }: LoggedCall, trace: TraceIds | undefined): Record<string, unknown> {
  return {
    server,
    tool: event.tool.length > MAX_TOOL_CHARS ? `${event.tool.slice(0, MAX_TOOL_CHARS)}…` : event.tool,
    client: event.clientId ?? null,
    revision: event.revision,
    durationMs: Math.round(((event.endedAt ?? event.startedAt) - event.startedAt) * 1000) / 1000,
    outcome: event.outcome,
    ...(event.errorCode !== undefined && { errorCode: event.errorCode }),
    ...(trace && { traceId: trace.traceId }),
    ...(trace?.spanId !== undefined && { spanId: trace.spanId }),
  };
}

/**
 * The audit trail: every tool call, refused ones included, with `callLogFields`. A call
 * that came in over HTTP already has its line, the request's access record: the call log
 * adds the outcome, the trace and the error code there rather than writing a second
 * line. A call without one (hub-stdio) gets a `tool call` line of its own, and so does a
 * call to one of the servers the operator named in `callLogPayloads`, with its arguments
 * and result. `traceOf` gives the hub's own span of the call when it traces; otherwise the
 * trace is the one the caller's `_meta` names, if any.
 */
export function createCallLog(log: FastifyBaseLogger, payloadServers: readonly string[], traceOf: (event: ToolCallEvent | HubToolCallEvent) => TraceIds | undefined): (call: LoggedCall) => void {
  const withPayloads = new Set(payloadServers);
  return (call) => {
    const { event } = call;
    const trace = traceOf(event) ?? callersTrace(event);
    const payloads = withPayloads.has(call.server);
    const access = event.request.access;
    if (access) {
      access.outcome = event.outcome;
      if (trace) access.traceId = trace.traceId;
      if (event.errorCode !== undefined) (access.fields ??= {}).errorCode = event.errorCode;
      if (trace?.spanId !== undefined) (access.fields ??= {}).spanId = trace.spanId;
      if (!payloads) return;
    }
    const line = callLogFields(call, trace);
    if (payloads) {
      line.arguments = event.params.arguments ?? {};
      if ('result' in event) line.result = event.result;
    }
    log.info(line, 'tool call');
  };
}

/** The trace id of the caller's `traceparent` (`00-<trace id>-<parent id>-<flags>`), when W3C Trace Context accepts it. */
function callersTrace(event: ToolCallEvent | HubToolCallEvent): TraceIds | undefined {
  const traceparent = traceContextOf(event.params._meta ?? event.request.meta)?.traceparent;
  return traceparent === undefined ? undefined : { traceId: traceparent.slice(3, 35) };
}
