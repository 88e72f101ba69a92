import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type ChildClock, type ClockTimer } from './clock.js';
import { backoffDelay, type ChildTimings } from './timings.js';
import { errorMessage } from '../errors.js';

/** What the supervisor needs from the child it watches. */
export interface SupervisedChild {
  readonly name: string;
  readonly alwaysRunning: boolean;
  readonly log: FastifyBaseLogger;
  /** One budgeted start; rejects when the child did not come up. */
  restart(): Promise<void>;
  /** Gives up on the child: it is parked as `stopped` with this reason. */
  park(reason: string): void;
}

/**
 * Restarts a child that ended on its own (exited, closed its socket, stopped answering
 * pings) after an exponentially growing delay. An on-demand server that keeps crashing
 * while nobody uses it is parked instead of restarted forever; an always-running one is
 * retried for as long as the hub runs, at most `backoffMaxMs` apart.
 */
export class Supervisor {
  #failures = 0;
  #restartTimer: ClockTimer | undefined;
  #stableTimer: ClockTimer | undefined;

  constructor(
    private readonly child: SupervisedChild,
    private readonly timings: () => ChildTimings,
    private readonly clock: () => ChildClock = () => systemClock,
  ) {}

  /** Consecutive crashes and failed restarts since the last use or stable run. */
  get failures(): number {
    return this.#failures;
  }

  /** Someone used the server, so it is not crash-looping unattended. */
  used(): void {
    this.#failures = 0;
  }

  /** The child came up; if it stays up long enough, its past failures are forgotten. */
  up(): void {
    const clock = this.clock();
    clock.clearTimeout(this.#stableTimer);
    this.#stableTimer = clock.setTimeout(() => {
      this.#failures = 0;
    }, this.timings().stableAfterMs);
  }

  /** The child ended without being asked to. */
  crashed(reason: string): void {
    const clock = this.clock();
    clock.clearTimeout(this.#stableTimer);
    clock.clearTimeout(this.#restartTimer);
    this.#failures += 1;
    const timings = this.timings();
    if (!this.child.alwaysRunning && this.#failures >= timings.crashLoopLimit) {
      this.child.log.error({ failures: this.#failures, reason }, 'server keeps crashing while unused; parked');
      this.child.park(`crash loop: ended ${this.#failures} times in a row while unused; last: ${reason}`);
      return;
    }
    const delay = backoffDelay(this.#failures, timings);
    this.child.log.warn({ failures: this.#failures, delayMs: delay, reason }, 'server ended; restarting');
    this.#restartTimer = clock.setTimeout(() => {
      this.#restartTimer = undefined;
      this.child.restart().catch((error: unknown) => this.crashed(errorMessage(error)));
    }, delay);
  }

  /** Forgets any scheduled restart (the server was slept, stopped or is being used). */
  cancel(): void {
    const clock = this.clock();
    clock.clearTimeout(this.#restartTimer);
    clock.clearTimeout(this.#stableTimer);
    this.#restartTimer = undefined;
    this.#stableTimer = undefined;
  }
}
