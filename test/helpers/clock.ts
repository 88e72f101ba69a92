import type { ChildClock, ClockTimer } from '../../core/children/clock.js';

/**
 * A clock that moves only when the test says: `advance(ms)` fires, in order, every timer
 * due within `ms`. Timing policies are then shown by events, whatever the machine's speed.
 */
export class ManualClock implements ChildClock {
  #now = 0;
  readonly #timers = new Map<ClockTimer, { at: number; callback: () => void }>();

  setTimeout(callback: () => void, ms: number): ClockTimer {
    const timer = {};
    this.#timers.set(timer, { at: this.#now + ms, callback });
    return timer;
  }

  clearTimeout(timer: ClockTimer | undefined): void {
    if (timer) this.#timers.delete(timer);
  }

  /** How many timers wait to fire. */
  get pending(): number {
    return this.#timers.size;
  }

  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, { at }]) => at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [timer, { at, callback }] = due;
      this.#timers.delete(timer);
      this.#now = at;
      callback();
    }
    this.#now = until;
  }
}
