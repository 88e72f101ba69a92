import { HUB_ERROR_CODES, HubError } from './errors.js';

/**
 * A named registry that plugins fill and the rest of the hub reads. Names are unique:
 * registering a name twice is a programming error in one of two plugins, so it throws
 * naming both owners.
 */
export class Registry<T> {
  readonly #entries = new Map<string, { value: T; owner: string }>();

  constructor(readonly kind: string) {}

  add(name: string, value: T, owner = 'core'): void {
    const existing = this.#entries.get(name);
    if (existing) {
      throw new HubError(HUB_ERROR_CODES.REGISTERED_TWICE, `${this.kind} "${name}" is registered twice (by ${existing.owner} and by ${owner})`);
    }
    this.#entries.set(name, { value, owner });
  }

  get(name: string): T | undefined {
    return this.#entries.get(name)?.value;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  values(): T[] {
    return [...this.#entries.values()].map((entry) => entry.value);
  }
}
