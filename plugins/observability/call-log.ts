import type { FastifyBaseLogger } from 'fastify';
import type { ToolCallEvent } from '../../core/plugin/observe.js';

/**
 * The audit trail: one structured line per tool call, saying who called what on which
 * server, on which revision, how long it took and how it ended. Arguments and results
 * stay out (they can hold anything a person typed), except for the servers the operator
 * named in `callLogPayloads`. The caller is its client id, or `api-token:<id>` for an API
 * token: never the bearer itself.
 */
export function createCallLog(log: FastifyBaseLogger, payloadServers: readonly string[]): (event: ToolCallEvent) => void {
  const withPayloads = new Set(payloadServers);
  return (event) => {
    const server = event.child.name;
    const line: Record<string, unknown> = {
      server,
      tool: event.tool,
      client: event.clientId ?? null,
      revision: event.revision,
      durationMs: Math.round(((event.endedAt ?? event.startedAt) - event.startedAt) * 1000) / 1000,
      outcome: event.outcome,
      ...(event.errorCode !== undefined && { errorCode: event.errorCode }),
    };
    if (withPayloads.has(server)) {
      line.arguments = event.params.arguments ?? {};
      line.result = event.result;
    }
    log.info(line, 'tool call');
  };
}
