import type { AccessAdmin, ProvidedService } from '../../core/plugin/index.js';

/** How an API token's caller id reads (core/http/authenticator.ts): `api-token:<id>`. */
const API_TOKEN_PREFIX = 'api-token:';
/** Token ids whose label is remembered at most: the oldest learnt goes first. Tokens are minted by hand, so this is far beyond a hub's usual count. */
export const MAX_LABELS = 1000;

/**
 * The labels of the API tokens that called, by token id, for the calls view: learnt from
 * the token listing (`hub.accessAdmin`) when an id not seen before calls, once for all the
 * ids waiting then; an id the listing does not have (no token plugin, an expired token) is
 * remembered as having no label, so that its calls do not read the listing again. A label
 * never changes once minted, so what is learnt stays true.
 */
export class CallerLabels {
  readonly #labels = new Map<string, string | null>();
  #refresh: Promise<void> | undefined;
  readonly #asked = new Set<string>();

  constructor(private readonly admin: ProvidedService<AccessAdmin>) {}

  /** The token id of an API token's caller id; undefined for any other caller. */
  static tokenIdOf(caller: string | null): string | undefined {
    return caller?.startsWith(API_TOKEN_PREFIX) ? caller.slice(API_TOKEN_PREFIX.length) : undefined;
  }

  /** Whether the label of `caller` is known now (every caller that is not an API token's is: it has none). */
  known(caller: string | null): boolean {
    const id = CallerLabels.tokenIdOf(caller);
    return id === undefined || this.#labels.has(id);
  }

  /** The label of `caller`'s token, when known and it has one. */
  labelOf(caller: string | null): string | null {
    const id = CallerLabels.tokenIdOf(caller);
    return id === undefined ? null : (this.#labels.get(id) ?? null);
  }

  /** Learns the labels of `callers` not known yet, in one read of the listing shared by whoever asks meanwhile. */
  learn(callers: readonly (string | null)[]): Promise<void> {
    for (const caller of callers) {
      const id = CallerLabels.tokenIdOf(caller);
      if (id !== undefined && !this.#labels.has(id)) this.#asked.add(id);
    }
    if (this.#refresh) return this.#refresh.then(() => (this.#asked.size > 0 ? this.learn([]) : undefined));
    if (this.#asked.size === 0) return Promise.resolve();
    const asked = [...this.#asked];
    this.#asked.clear();
    this.#refresh = this.#read(asked).finally(() => (this.#refresh = undefined));
    return this.#refresh;
  }

  async #read(ids: readonly string[]): Promise<void> {
    const listed = new Map<string, string | null>();
    try {
      for (const token of (await this.admin.current?.listTokens()) ?? []) listed.set(token.id, token.label ?? null);
    } catch {
      // The listing failed (its store is down): these calls show the id alone, and the next call of each asks again.
      return;
    }
    for (const id of ids) {
      this.#labels.set(id, listed.get(id) ?? null);
      if (this.#labels.size > MAX_LABELS) this.#labels.delete(this.#labels.keys().next().value as string);
    }
  }
}
