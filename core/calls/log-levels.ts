import type { LoggingLevel } from '@modelcontextprotocol/server';

/** The levels of RFC 5424 as MCP orders them, least severe first. */
const SEVERITY: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Callers whose level one endpoint keeps at most: the oldest set is forgotten past it. */
const MAX_CALLERS = 10_000;

/** Whether `value` names a log level. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return SEVERITY.includes(value as LoggingLevel);
}

/** Whether a message at `level` reaches a caller who asked for `threshold` and above. */
export function logPasses(level: unknown, threshold: LoggingLevel): boolean {
  const at = SEVERITY.indexOf(level as LoggingLevel);
  return at >= 0 && at >= SEVERITY.indexOf(threshold);
}

/**
 * The log level each caller of one endpoint set with `logging/setLevel`, on a revision
 * whose endpoint is stateless and carries no level per request (2025-11-25): with no
 * session to keep it in, it is kept by the caller's identity (as cancellations are: its
 * OAuth client or API token, its address on an open loopback hub) and holds for that
 * caller's later requests to the endpoint. Bounded: the least recently set is forgotten.
 */
export class CallerLogLevels {
  readonly #levels = new Map<string, LoggingLevel>();

  set(caller: string, level: LoggingLevel): void {
    this.#levels.delete(caller);
    this.#levels.set(caller, level);
    if (this.#levels.size > MAX_CALLERS) this.#levels.delete(this.#levels.keys().next().value as string);
  }

  get(caller: string): LoggingLevel | undefined {
    return this.#levels.get(caller);
  }
}
