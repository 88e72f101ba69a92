const WINDOW_MS = 15 * 60 * 1000;

/**
 * Failed password attempts per client address and in total, per window. Guessing the
 * shared password is slowed to a handful of tries per address; the total limit keeps a
 * spread-out guesser from making much progress either.
 */
export class LoginThrottle {
  readonly #failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly perAddress = 10,
    private readonly total = 100,
  ) {}

  blocked(address: string): boolean {
    return this.#count(address) >= this.perAddress || this.#count('*') >= this.total;
  }

  failed(address: string): void {
    for (const key of [address, '*']) {
      const entry = this.#entry(key);
      entry.count++;
    }
  }

  #count(key: string): number {
    return this.#entry(key).count;
  }

  #entry(key: string): { count: number; resetAt: number } {
    const now = Date.now();
    let entry = this.#failures.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + WINDOW_MS };
      this.#failures.set(key, entry);
    }
    return entry;
  }
}
