import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Write = (...args: unknown[]) => void;

/**
 * Fastify's per-request logger, made when the request first writes to it. Fastify makes a
 * pino child per request (its `reqId` binding), which runs the logger's redaction over the
 * bindings: about 1% of a tool call's CPU, for a logger that a request served at the
 * default level never writes to (the access record is the request's line, written by its
 * own logger). A line the request does write is the child's, as before.
 */
export const lazyRequestLog: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  // A route's own level (or serializers) decides what the child writes: made as Fastify would.
  options.level !== undefined || options.serializers !== undefined || !hasLevelCheck(logger) ? logger.child(bindings, options) : new LazyRequestLog(logger, bindings, options);

class LazyRequestLog implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled(level: string): boolean },
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.#made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#log().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#log().child(bindings, options);
  }

  #log(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  /** Nothing is made for a level the child would not write. */
  #write(level: Level, args: unknown[]): void {
    if (this.#made === undefined && !this.parent.isLevelEnabled(level)) return;
    const log = this.#log();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- TypeScript 6 (the linter's) reads it as unneeded, TypeScript 7 needs it
    (log[level] as Write).apply(log, args);
  }
}

function hasLevelCheck(logger: FastifyBaseLogger): logger is FastifyBaseLogger & { isLevelEnabled(level: string): boolean } {
  return typeof (logger as { isLevelEnabled?: unknown }).isLevelEnabled === 'function';
}
