/** How far back the status page looks. */
const WINDOW_MS = 60 * 60 * 1000;
const MINUTE_MS = 60_000;
const MINUTES = WINDOW_MS / MINUTE_MS;
/** Durations kept per server for the percentiles: the most recent ones within the hour. */
const SAMPLES = 1024;

export interface RecentFigures {
  calls: number;
  errors: number;
  /** Undefined without a call in the window. */
  p50Ms: number | undefined;
  p99Ms: number | undefined;
}

/**
 * One server's calls over the last hour, for the status page: counts in one-minute buckets
 * (exact for the hour, fixed memory) and the latest durations in a ring, from which the
 * percentiles are read when the page is drawn (nothing sorted per call).
 */
export class RecentCalls {
  readonly #minutes = new Float64Array(MINUTES);
  readonly #calls = new Uint32Array(MINUTES);
  readonly #errors = new Uint32Array(MINUTES);
  readonly #durations = new Float64Array(SAMPLES);
  readonly #times = new Float64Array(SAMPLES);
  #next = 0;

  record(now: number, durationMs: number, failed: boolean): void {
    const minute = Math.floor(now / MINUTE_MS);
    const slot = minute % MINUTES;
    if (this.#minutes[slot] !== minute) {
      this.#minutes[slot] = minute;
      this.#calls[slot] = 0;
      this.#errors[slot] = 0;
    }
    this.#calls[slot] = (this.#calls[slot] as number) + 1;
    if (failed) this.#errors[slot] = (this.#errors[slot] as number) + 1;
    this.#durations[this.#next] = durationMs;
    this.#times[this.#next] = now;
    this.#next = (this.#next + 1) % SAMPLES;
  }

  figures(now: number): RecentFigures {
    const oldestMinute = Math.floor(now / MINUTE_MS) - MINUTES + 1;
    let calls = 0;
    let errors = 0;
    for (let slot = 0; slot < MINUTES; slot += 1) {
      if ((this.#minutes[slot] as number) < oldestMinute) continue;
      calls += this.#calls[slot] as number;
      errors += this.#errors[slot] as number;
    }
    const durations: number[] = [];
    for (let index = 0; index < SAMPLES; index += 1) {
      const at = this.#times[index] as number;
      if (at > 0 && now - at < WINDOW_MS) durations.push(this.#durations[index] as number);
    }
    durations.sort((a, b) => a - b);
    return { calls, errors, p50Ms: percentile(durations, 0.5), p99Ms: percentile(durations, 0.99) };
  }
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], fraction: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}
