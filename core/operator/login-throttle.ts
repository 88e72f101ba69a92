import { setTimeout as sleep } from 'node:timers/promises';
import { addressKey } from '../limits/address.js';
import { msUntilBelow, type RecordedCount, slidingEstimate, type WindowCount, WindowCounter } from '../limits/window-counter.js';
import type { Store } from '../store/index.js';

const WINDOW_MS = 15 * 60 * 1000;
/** Passwords from one address checked at most within the window, the right ones not counting. */
export const CHECKS_PER_ADDRESS = 10;
/** Wrong passwords from all addresses below which nobody waits. */
const QUIET = 30;
const FIRST_DELAY_MS = 100;
/** Every this many further failures, the wait doubles. */
const DOUBLING = 30;
const MAX_DELAY_MS = 10_000;

/** How long every password check waits, given the wrong passwords of all addresses in the window. */
export function loginDelayMs(failures: number): number {
  if (failures < QUIET) return 0;
  return Math.min(MAX_DELAY_MS, Math.round(FIRST_DELAY_MS * 2 ** ((failures - QUIET) / DOUBLING)));
}

/**
 * Why a password was not checked: the address used up its checks (`throttled`), another
 * password of that address is being checked (`busy`), or the store, which keeps the count,
 * does not answer (`unavailable`: no count, no check).
 */
export type LoginRefusal = 'throttled' | 'busy' | 'unavailable';

export type LoginAttempt = { refused: LoginRefusal; retryAfterSeconds: number } | { refused: false; matched: boolean };

/**
 * Password checks per address and wrong passwords in total over 15 minutes, kept in the
 * store so that replicas (and every page) share them. `request.ip` is the forwarded
 * address only from TRUSTED_PROXIES, and an IPv6 /64 counts as one address.
 *
 * Correct under concurrency: an attempt is counted in the store, atomically, before its
 * password is checked, and the right password is taken off the count afterwards; so of
 * any number of parallel guesses from one address, on any number of replicas, at most
 * CHECKS_PER_ADDRESS are checked in a window. A process checks one password of an address
 * at a time (the others are refused at once, `busy`), and the wait comes before the check,
 * while that address's turn is held: a burst cannot pass together.
 *
 * The total never refuses anyone, so nobody can lock the operator out: it makes every
 * check wait, the right password's too (so the wait says nothing), longer as failures add
 * up (`loginDelayMs`), which slows a guesser spread over many addresses.
 */
export class LoginThrottle {
  readonly #checks: WindowCounter;
  readonly #failures: WindowCounter;
  /** Addresses with a password being checked in this process. */
  readonly #checking = new Set<string>();

  constructor(
    store: Store,
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
  ) {
    this.#checks = new WindowCounter(store, 'login-checks', WINDOW_MS);
    this.#failures = new WindowCounter(store, 'login-failures', WINDOW_MS);
  }

  /** Checks a password from `ip` with `matches`, unless the address is refused. */
  async attempt(ip: string, matches: () => Promise<boolean>): Promise<LoginAttempt> {
    const address = addressKey(ip);
    if (this.#checking.has(address)) return { refused: 'busy', retryAfterSeconds: 1 };
    this.#checking.add(address);
    try {
      return await this.#attempt(`address:${address}`, matches);
    } finally {
      this.#checking.delete(address);
    }
  }

  async #attempt(key: string, matches: () => Promise<boolean>): Promise<LoginAttempt> {
    const refused = (count: WindowCount): LoginAttempt => ({
      refused: 'throttled',
      retryAfterSeconds: Math.max(1, Math.ceil(msUntilBelow(CHECKS_PER_ADDRESS, count) / 1000)),
    });
    let counted: RecordedCount;
    try {
      // What this process knows already refuses without a write: a refused address adds nothing to the store.
      const known = await this.#checks.count(key);
      if (slidingEstimate(known) >= CHECKS_PER_ADDRESS) return refused(known);
      counted = await this.#checks.record(key);
    } catch {
      return { refused: 'unavailable', retryAfterSeconds: 5 };
    }
    if (slidingEstimate(counted) > CHECKS_PER_ADDRESS) {
      // Another replica took the last check meanwhile: this attempt is not one.
      await this.#checks.record(key, -1, counted.window).catch(() => undefined);
      return refused(counted);
    }
    const all = await this.#failures.count('all');
    await this.wait(loginDelayMs(slidingEstimate(all)));
    const matched = await matches();
    if (matched) await this.#checks.record(key, -1, counted.window).catch(() => undefined);
    else this.#failures.add('all');
    return { refused: false, matched };
  }
}
