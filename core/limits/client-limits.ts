import type { HubSettings } from '../config/settings.js';
import type { Store } from '../store/index.js';
import { msUntilBelow, slidingEstimate, WindowCounter, type WindowCount } from './window-counter.js';

/** `countNow`'s answer for a call counted and let through. */
export const ADMITTED = 'admitted';

/** A call a limit refused: the text the caller gets (an HTTP 429's JSON-RPC error) and when to come back. */
export interface LimitRefusal {
  message: string;
  retryAfterSeconds: number;
}

/**
 * A client's calls: CLIENT_CALLS_PER_MINUTE, counted through the store so that replicas
 * share it, and CLIENT_MAX_CONCURRENT, counted in this process. The MCP endpoints check
 * each request against them (http/admission.ts), and a call made for a client inside one of
 * its requests (a code-mode program's tool call) is checked against the same counts, so
 * no road lets a client past its limits.
 */
export class ClientLimits {
  readonly #calls: WindowCounter;
  readonly #inFlight = new Occupancy();

  constructor(
    store: Store,
    readonly settings: Pick<HubSettings, 'clientCallsPerMinute' | 'clientMaxConcurrent'>,
    now: () => number,
  ) {
    this.#calls = new WindowCounter(store, 'mcp-calls', 60_000, { limit: settings.clientCallsPerMinute, now });
  }

  /** Counts one call of `client` against CLIENT_CALLS_PER_MINUTE, or refuses it (and counts nothing). */
  async count(client: string): Promise<LimitRefusal | undefined> {
    const known = this.countNow(client);
    if (known !== undefined) return known === ADMITTED ? undefined : known;
    return this.#counted(client, await this.#calls.count(client));
  }

  /**
   * `count` without a promise when the count is in memory (no store read due): ADMITTED
   * (counted) or the refusal; undefined when `count` must read the store first.
   */
  countNow(client: string): LimitRefusal | typeof ADMITTED | undefined {
    const count = this.#calls.countNow(client);
    return count && (this.#counted(client, count) ?? ADMITTED);
  }

  #counted(client: string, count: WindowCount): LimitRefusal | undefined {
    const limit = this.settings.clientCallsPerMinute;
    if (slidingEstimate(count) >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil(msUntilBelow(limit, count) / 1000));
      return { message: `Rate limit exceeded: this client may make ${limit} MCP requests a minute; retry in ${retryAfterSeconds} s`, retryAfterSeconds };
    }
    this.#calls.add(client);
    return undefined;
  }

  /** Takes one of `client`'s CLIENT_MAX_CONCURRENT slots: its release, or the refusal. */
  hold(client: string): (() => void) | LimitRefusal {
    const limit = this.settings.clientMaxConcurrent;
    if (!this.#inFlight.take(client, limit)) return { message: `Too many concurrent requests: this client may have ${limit} in flight`, retryAfterSeconds: 1 };
    let held = true;
    return () => {
      if (held) this.#inFlight.release(client);
      held = false;
    };
  }

  /** Both limits for one call of `client`: the release of its slot, or the refusal. */
  async admit(client: string): Promise<(() => void) | LimitRefusal> {
    return (await this.count(client)) ?? this.hold(client);
  }
}

/** Slots held per client in this process. */
export class Occupancy {
  readonly #held = new Map<string, number>();

  take(client: string, limit: number): boolean {
    const held = this.#held.get(client) ?? 0;
    if (held >= limit) return false;
    this.#held.set(client, held + 1);
    return true;
  }

  release(client: string): void {
    const held = (this.#held.get(client) ?? 1) - 1;
    if (held > 0) this.#held.set(client, held);
    else this.#held.delete(client);
  }
}
