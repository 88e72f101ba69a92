import type { FastifyBaseLogger } from 'fastify';
import type { ChildClock, ClockTimer } from './clock.js';
import type { ChildTimings } from './timings.js';

type RelistTimings = Pick<ChildTimings, 'relistBaseMs' | 'relistMaxMs'>;

/**
 * The wait before the next re-listing of a child that cannot be watched, after `quietRounds`
 * re-listings in a row that found nothing changed: base, 2 x base, 4 x base, ... up to max.
 * A change found brings it back to base, so a child that changes often is followed closely
 * and a quiet one costs a request every `relistMaxMs` at most.
 */
export function relistDelay(quietRounds: number, timings: RelistTimings): number {
  const exponent = Math.max(0, Math.min(quietRounds, 30));
  return Math.min(timings.relistMaxMs, timings.relistBaseMs * 2 ** exponent);
}

/**
 * Re-lists a child that cannot be watched (it refuses or never acknowledges a listen), so its
 * callers still hear its list changes: `relist` reads the lists afresh and tells the
 * listeners what changed, resolving true when something did. One re-listing at a time; none
 * after `stop`.
 */
export class Relister {
  #timer: ClockTimer | undefined;
  #quiet = 0;
  #running = false;

  constructor(
    private readonly clock: () => ChildClock,
    private readonly timings: () => RelistTimings,
    private readonly relist: () => Promise<boolean>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Whether re-listing is under way (the child cannot be watched). */
  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#quiet = 0;
    this.#schedule();
  }

  stop(): void {
    this.#running = false;
    this.clock().clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    if (!this.#running) return;
    this.#timer = this.clock().setTimeout(() => void this.#round(), relistDelay(this.#quiet, this.timings()));
  }

  async #round(): Promise<void> {
    this.#timer = undefined;
    try {
      this.#quiet = (await this.relist()) ? 0 : this.#quiet + 1;
    } catch (error) {
      this.#quiet += 1;
      this.log.debug({ err: (error as Error).message }, 're-listing a server that cannot be watched failed');
    }
    this.#schedule();
  }
}
