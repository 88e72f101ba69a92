import { HUB_ERROR_CODES, HubError, StartupError } from './errors.js';

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

/**
 * A service only one plugin may provide (the bearer check of the MCP endpoints, the
 * credentials lent to remote children). A second provider is refused at start-up, naming
 * both plugins: with two, one would silently win.
 */
export class Slot<T> {
  #filled: { value: T; owner: string } | undefined;

  constructor(readonly kind: string) {}

  fill(value: T, owner: string): void {
    if (this.#filled) {
      throw new StartupError(`${this.kind} is provided twice (by plugin "${this.#filled.owner}" and by plugin "${owner}"); only one plugin may provide it: disable one of them`, {
        code: HUB_ERROR_CODES.SLOT_TAKEN,
      });
    }
    this.#filled = { value, owner };
  }

  get value(): T | undefined {
    return this.#filled?.value;
  }

  /** The plugin that provides the service, if one does. */
  get owner(): string | undefined {
    return this.#filled?.owner;
  }
}
