/**
 * Parsed upstream answers by request, for a fixed time. Bounded so a long-running server
 * cannot grow without limit; the oldest entry goes first.
 */
export class ResponseCache {
  readonly #entries = new Map<string, { value: unknown; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: string): unknown {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return structuredClone(entry.value);
  }

  set(key: string, value: unknown): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value: structuredClone(value), expires: Date.now() + this.ttlMs });
  }
}
