import { setTimeout as sleep } from 'node:timers/promises';
import { addressKey } from '../limits/address.js';
import { msUntilBelow, slidingEstimate, WindowCounter } from '../limits/window-counter.js';
import type { Store } from '../store/index.js';

const WINDOW_MS = 15 * 60 * 1000;
/** Wrong passwords after which an address is refused, within the window. */
const PER_ADDRESS = 10;
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

export type LoginAttempt = { refused: true; retryAfterSeconds: number } | { refused: false; matched: boolean };

/**
 * Wrong passwords per address and in total over 15 minutes, kept in the store so that
 * replicas (and both login pages) share them. An address with 10 failures is refused until
 * its count falls; `request.ip` is the forwarded address only from TRUSTED_PROXIES, and an
 * IPv6 /64 counts as one address. The total never refuses anyone, so nobody can lock the
 * operator out: it makes every check wait, the right password's too (so the wait says
 * nothing), longer as failures add up (`loginDelayMs`), which slows a guesser spread over
 * many addresses.
 */
export class LoginThrottle {
  readonly #failures: WindowCounter;

  constructor(store: Store) {
    this.#failures = new WindowCounter(store, 'login-failures', WINDOW_MS);
  }

  /** Checks a password from `ip` with `matches`, unless the address is refused. */
  async attempt(ip: string, matches: () => Promise<boolean>): Promise<LoginAttempt> {
    const address = `address:${addressKey(ip)}`;
    const [own, all] = await Promise.all([this.#failures.count(address), this.#failures.count('all')]);
    if (slidingEstimate(own) >= PER_ADDRESS) {
      return { refused: true, retryAfterSeconds: Math.max(1, Math.ceil(msUntilBelow(PER_ADDRESS, own) / 1000)) };
    }
    await sleep(loginDelayMs(slidingEstimate(all)));
    const matched = await matches();
    if (!matched) {
      this.#failures.add(address);
      this.#failures.add('all');
    }
    return { refused: false, matched };
  }
}
