import type { PluginHub } from '../../core/plugin/index.js';

/** The calls a minute is counted from: the topics of `hub.observe` that tell of a call's end. */
export type CallEndTopics = Pick<PluginHub['observe'], 'toolCallEnd' | 'hubToolCall'>;

const WINDOW_SECONDS = 60;

export interface LastMinute {
  /** Tool calls that ended in the last 60 seconds: a configured server's and `/hub`'s own, as `/metrics` counts them. */
  calls: number;
  /** Of those, the ones whose outcome was not `ok`. */
  failed: number;
  /** `failed / calls`, or null when there was no call. */
  errorRate: number | null;
}

/**
 * Calls and failures over the last minute, for the overview: one bucket per second in a
 * ring of 60, so that a call costs two additions and memory stays the same whatever the
 * rate (the calls ring keeps the last calls by count, which says nothing of a minute).
 */
export class CallRate {
  readonly #calls = new Array<number>(WINDOW_SECONDS).fill(0);
  readonly #failed = new Array<number>(WINDOW_SECONDS).fill(0);
  /** The second (since the epoch) the buckets were last written for. */
  #second = 0;
  readonly #unsubscribe: (() => void)[];

  constructor(
    topics: CallEndTopics,
    private readonly now: () => number = Date.now,
  ) {
    this.#unsubscribe = [topics.toolCallEnd.subscribe((event) => this.#count(event.outcome === 'ok')), topics.hubToolCall.subscribe((event) => this.#count(event.outcome === 'ok'))];
  }

  lastMinute(): LastMinute {
    this.#advance();
    const calls = sum(this.#calls);
    const failed = sum(this.#failed);
    return { calls, failed, errorRate: calls === 0 ? null : failed / calls };
  }

  close(): void {
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
  }

  #count(ok: boolean): void {
    const at = this.#advance() % WINDOW_SECONDS;
    this.#calls[at] = (this.#calls[at] ?? 0) + 1;
    if (!ok) this.#failed[at] = (this.#failed[at] ?? 0) + 1;
  }

  /** Empties the buckets of the seconds gone by since the last write; returns the current second. */
  #advance(): number {
    const second = Math.floor(this.now() / 1000);
    const gone = Math.min(second - this.#second, WINDOW_SECONDS);
    for (let step = 1; step <= gone; step++) {
      const at = (this.#second + step) % WINDOW_SECONDS;
      this.#calls[at] = 0;
      this.#failed[at] = 0;
    }
    if (gone > 0) this.#second = second;
    return second;
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
