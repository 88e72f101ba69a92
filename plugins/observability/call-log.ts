import type { FastifyBaseLogger } from 'fastify';
import type { ToolCallEvent } from '../../core/plugin/observe.js';

/**
 * The audit trail of tool calls: who called what on which server, on which revision, how
 * long it took and how it ended. A call that came in over HTTP already has its line, the
 * request's access record: the call log adds its outcome (and error code) there instead of
 * writing a second line. A call without one (hub-stdio) gets a line of its own. Arguments
 * and results stay out (they can hold anything a person typed), except for the servers
 * the operator named in `callLogPayloads`, whose calls get a line with them. The caller is
 * its client id, or `api-token:<id>` for an API token: never the bearer itself.
 */
export function createCallLog(log: FastifyBaseLogger, payloadServers: readonly string[]): (event: ToolCallEvent) => void {
  const withPayloads = new Set(payloadServers);
  return (event) => {
    const server = event.child.name;
    const { access } = event;
    if (access) {
      access.outcome = event.outcome;
      if (event.errorCode !== undefined) (access.fields ??= {}).errorCode = event.errorCode;
    }
    const payloads = withPayloads.has(server);
    if (access && !payloads) return;
    const line: Record<string, unknown> = {
      server,
      tool: event.tool,
      client: event.clientId ?? null,
      revision: event.revision,
      durationMs: Math.round(((event.endedAt ?? event.startedAt) - event.startedAt) * 1000) / 1000,
      outcome: event.outcome,
      ...(event.errorCode !== undefined && { errorCode: event.errorCode }),
      ...(access?.traceId !== undefined && { traceId: access.traceId }),
    };
    if (payloads) {
      line.arguments = event.params.arguments ?? {};
      line.result = event.result;
    }
    log.info(line, 'tool call');
  };
}
