/**
 * How long the hub's shutdown waits at most for the spans it still holds to reach the
 * collector: with the rest of a shutdown, the hub is gone within 2 s of the signal.
 */
export const SHUTDOWN_FLUSH_MS = 1500;
/** After the first line about a collector out of reach, at most one more this often. */
export const FAILURE_LOG_INTERVAL_MS = 5 * 60_000;

export interface ExportLog {
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/**
 * What the log says about a collector the exporter cannot reach: the first failure at
 * once (with its cause), then at most one line per `intervalMs` saying how many exports
 * failed since, and one line when an export succeeds again. An outage costs a few lines,
 * never one per batch. `now` is injected so that the policy is tested without a clock.
 */
export class ExportFailureLog {
  #failing = false;
  #lastLine = 0;
  #since = 0;

  constructor(
    private readonly log: ExportLog,
    private readonly target: string,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = FAILURE_LOG_INTERVAL_MS,
  ) {}

  /** Whether the last export failed: the collector is out of reach as far as the hub knows. */
  get failing(): boolean {
    return this.#failing;
  }

  failed(cause: string): void {
    const now = this.now();
    this.#since += 1;
    if (this.#failing && now - this.#lastLine < this.intervalMs) return;
    const first = !this.#failing;
    this.#failing = true;
    this.#lastLine = now;
    this.log.warn(
      { collector: this.target, err: cause, ...(first ? {} : { failedExports: this.#since }) },
      first
        ? `tracing: spans cannot reach the collector; they are dropped until it answers (said again at most every ${Math.round(this.intervalMs / 60_000)} minutes)`
        : 'tracing: spans still cannot reach the collector',
    );
    this.#since = 0;
  }

  succeeded(): void {
    if (!this.#failing) return;
    this.#failing = false;
    this.log.info({ collector: this.target, failedExports: this.#since }, 'tracing: spans reach the collector again');
    this.#since = 0;
  }
}

/**
 * How long a shutdown waits for the last spans: not at all when the last export failed
 * (the collector is out of reach, so waiting would only delay the exit and the exporter's
 * retries would spend the whole budget), else `SHUTDOWN_FLUSH_MS`.
 */
export function flushBudget(collectorFailing: boolean): number {
  return collectorFailing ? 0 : SHUTDOWN_FLUSH_MS;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (run, ms) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * Waits for `work` at most `ms`: `done` when it settled in time, `failed` when it
 * rejected, `late` when the time ran out first (it goes on unwatched). Never rejects, so
 * a collector that does not answer can neither hold a shutdown longer than `ms` nor fail
 * it. `timers` are injected so that the policy is tested without a clock.
 */
export async function settleWithin(work: Promise<unknown>, ms: number, timers: Timers = realTimers): Promise<{ result: 'done' } | { result: 'failed'; error: unknown } | { result: 'late' }> {
  let timer: unknown;
  const late = new Promise<{ result: 'late' }>((resolve) => {
    timer = timers.setTimeout(() => resolve({ result: 'late' }), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => ({ result: 'done' as const }),
        (error: unknown) => ({ result: 'failed' as const, error }),
      ),
      late,
    ]);
  } finally {
    timers.clearTimeout(timer);
  }
}
