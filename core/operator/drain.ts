import type { ServerResponse } from 'node:http';
import { onClose } from '../net/on-close.js';

/**
 * The shutdown drain: from its start the hub is not ready (`/readyz` 503) and refuses new
 * MCP requests, while the ones in flight may finish for `DRAIN_TIMEOUT_MS`; those still
 * running then are cut (their servers stopped), so each gets an answer that says why
 * rather than a dropped connection. Long-lived streams are not waited for.
 */
export class Drain {
  #draining = false;
  #cut = false;
  #inFlight = 0;
  #idle: (() => void)[] = [];
  readonly #finally: (() => Promise<void>)[] = [];

  /** Whether the drain has begun: the hub is going away. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Whether the drain ran out of time and cut what was still running. */
  get cut(): boolean {
    return this.#cut;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Runs once the requests waited for are done (or cut): what ends long-lived streams. */
  onDrained(work: () => Promise<void>): void {
    this.#finally.push(work);
  }

  /** Counts a request the drain waits for, until its response is closed. */
  track(response: ServerResponse): void {
    this.#inFlight += 1;
    onClose(response, () => {
      this.#inFlight -= 1;
      if (this.#inFlight === 0) this.#idle.splice(0).forEach((resolve) => resolve());
    });
  }

  /**
   * Drains: waits up to `timeoutMs` for the requests in flight; if some still run then,
   * `cut` ends what they wait on and they are given `graceMs` more to answer. Resolves with
   * how many were cut.
   */
  async run(timeoutMs: number, cut: () => Promise<void>, graceMs: number): Promise<number> {
    this.#draining = true;
    let running = 0;
    if (!(await this.#idleWithin(timeoutMs))) {
      running = this.#inFlight;
      this.#cut = true;
      await cut();
      await this.#idleWithin(graceMs);
    }
    await Promise.allSettled(this.#finally.map((work) => work()));
    return running;
  }

  async #idleWithin(ms: number): Promise<boolean> {
    if (this.#inFlight === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<true>((resolve) => this.#idle.push(() => resolve(true)));
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    try {
      return await Promise.race([idle, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
