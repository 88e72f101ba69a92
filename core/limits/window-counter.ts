import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { DuplicateKeyError, type Store, type StoreCollection } from '../store/index.js';
import { sharedAttempt } from '../shared-attempt.js';

/** One key's events in one fixed window, as the store keeps them. */
export interface CountRecord {
  _id: string;
  count: number;
  /** Once the window after this one has ended, the record is no longer needed. */
  expiresAt: Date;
}

export interface WindowCount {
  /** Events in the window before the current one. */
  previous: number;
  /** Events in the current window so far. */
  current: number;
  /** How far into the current window `now` is. */
  elapsedMs: number;
  windowMs: number;
}

/**
 * The sliding-window estimate: the events of the last `windowMs`, taken as the current
 * window's count plus the part of the previous window's that still overlaps it.
 */
export function slidingEstimate({ previous, current, elapsedMs, windowMs }: WindowCount): number {
  return previous * (1 - elapsedMs / windowMs) + current;
}

/** How long, with no further event, until the estimate is below `limit` (0: it is now). */
export function msUntilBelow(limit: number, count: WindowCount): number {
  const { previous, current, elapsedMs, windowMs } = count;
  if (slidingEstimate(count) < limit) return 0;
  // Still in this window: the previous window's share shrinks as time goes on.
  if (current < limit) return Math.floor(windowMs * (1 - (limit - current) / previous) - elapsedMs) + 1;
  // Only in the next window, where this window's count becomes the one that shrinks.
  return Math.floor(windowMs - elapsedMs + windowMs * (1 - limit / current)) + 1;
}

/** How long a process works from its own view of a key before it writes to and reads the store again. */
const SYNC_MS = 1000;
/** Keys a process keeps a view of; the least recently used go first. */
const MAX_KEYS = 50_000;

interface KeyView {
  window: number;
  /** The store's count of the current window when last read (this process's written events included). */
  stored: number;
  /** This process's events of the current window not yet written. */
  pending: number;
  previous: number;
  syncedAt: number;
  syncing?: Promise<void> | undefined;
}

export interface WindowCounterOptions {
  /**
   * The limit counts are checked against, when there is one. A process then writes its
   * events once LIMIT_BATCH of the limit are waiting (besides once a second), and reads
   * the store before every count from LIMIT_EXACT_FROM of it up to the limit, so that
   * replicas together run past the limit by at most LIMIT_BATCH of it each.
   */
  limit?: number;
  /** The time in ms since the epoch; tests pass their own. */
  now?: () => number;
}

/** The share of a limit a process counts before it writes its events. */
const LIMIT_BATCH = 0.05;
/** The share of a limit from which every count reads the store first. */
const LIMIT_EXACT_FROM = 0.8;

/** A count taken by `record`: the window it went to, for a later correction of the same window. */
export interface RecordedCount extends WindowCount {
  window: number;
}

/**
 * Events per key over a sliding window, shared through the hub's store by every process
 * that uses it (replicas on one MongoDB, or on one DATA_PATH). Hand-written rather than
 * `@fastify/rate-limit`: its store contract is one increment in the store per request,
 * which on the embedded store is a file write per MCP call, and its key is known before
 * the bearer check that names the client. Here a process counts its own events at once
 * and writes them as one increment when the key is next counted and a second has passed
 * (or, with a `limit`, 5% of it is waiting), reading the others' in the same step; near
 * the limit it does so before every count. A busy client costs one store write a second;
 * replicas run past a limit by at most 5% of it each. A store failure leaves the process
 * counting on its own. `record` is the exact road, for what must hold under concurrency
 * (password attempts): one atomic increment in the store per event.
 */
export class WindowCounter {
  readonly #records: StoreCollection<CountRecord>;
  readonly #views = new LRUCache<string, KeyView>({ max: MAX_KEYS });
  readonly #limit: number;
  readonly #batch: number;
  private readonly now: () => number;
  readonly #ensureIndexed = sharedAttempt(() => this.#records.createIndex('expiresAt', { expireAfterSeconds: 0 }));

  constructor(
    store: Store,
    private readonly scope: string,
    readonly windowMs: number,
    options: WindowCounterOptions = {},
  ) {
    this.#records = store.collection<CountRecord>('limit-counts');
    this.#limit = options.limit ?? Number.POSITIVE_INFINITY;
    this.#batch = options.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(1, Math.floor(options.limit * LIMIT_BATCH));
    this.now = options.now ?? Date.now;
  }

  async count(key: string): Promise<WindowCount> {
    const known = this.countNow(key);
    if (known !== undefined) return known;
    const view = this.#view(key);
    view.syncing ??= this.#sync(key, view).finally(() => (view.syncing = undefined));
    await view.syncing;
    return this.#counted(view);
  }

  /** `count`'s answer when it needs no store read (most counts); undefined when one is due. */
  countNow(key: string): WindowCount | undefined {
    const view = this.#view(key);
    const counted = this.#counted(view);
    const estimate = slidingEstimate(counted);
    const nearLimit = estimate >= this.#limit * LIMIT_EXACT_FROM && estimate < this.#limit;
    if (this.now() - view.syncedAt >= SYNC_MS || view.pending >= this.#batch || nearLimit) return undefined;
    return counted;
  }

  add(key: string): void {
    this.#view(key).pending += 1;
  }

  /**
   * Adds `delta` events to the store's count at once (to `window`, by default the current
   * one) and returns the key's count with them. The increment is atomic: of concurrent
   * callers, in this process or in replicas, each gets a count of its own, so a limit
   * checked on it holds exactly. A store failure throws.
   */
  async record(key: string, delta = 1, window?: number): Promise<RecordedCount> {
    const view = this.#view(key);
    const target = window ?? view.window;
    await this.#ensureIndexed();
    const [stored, previous] = await Promise.all([this.#add(key, target, delta), this.#records.findOne({ _id: this.#id(key, target - 1) })]);
    if (target !== view.window) return { previous: previous?.count ?? 0, current: stored, elapsedMs: this.now() % this.windowMs, windowMs: this.windowMs, window: target };
    view.stored = stored;
    view.previous = Math.max(view.previous, previous?.count ?? 0);
    return { ...this.#counted(view), window: target };
  }

  #counted(view: KeyView): WindowCount {
    return { previous: view.previous, current: view.stored + view.pending, elapsedMs: this.now() % this.windowMs, windowMs: this.windowMs };
  }

  /** This key's view, moved on to the current window (the previous window's count is what this process saw of it). */
  #view(key: string): KeyView {
    const window = Math.floor(this.now() / this.windowMs);
    let view = this.#views.get(key);
    if (!view || view.window !== window) {
      const previous = view?.window === window - 1 ? view.stored + view.pending : 0;
      // Events this process had not yet written to a window that has ended stay out of the store.
      view = { window, stored: 0, pending: 0, previous, syncedAt: 0 };
      this.#views.set(key, view);
    }
    return view;
  }

  async #sync(key: string, view: KeyView): Promise<void> {
    const { window } = view;
    const delta = view.pending;
    try {
      await this.#ensureIndexed();
      const [stored, previous] = await Promise.all([this.#add(key, window, delta), this.#records.findOne({ _id: this.#id(key, window - 1) })]);
      view.pending -= delta;
      view.stored = stored;
      view.previous = Math.max(view.previous, previous?.count ?? 0);
    } catch {
      // The store is unreachable: this process goes on counting alone, and tries again in SYNC_MS.
    } finally {
      view.syncedAt = this.now();
    }
  }

  /** Adds `delta` to the store's count of the window and returns the new count. */
  async #add(key: string, window: number, delta: number): Promise<number> {
    const _id = this.#id(key, window);
    if (delta === 0) return (await this.#records.findOne({ _id }))?.count ?? 0;
    const updated = await this.#records.findOneAndUpdate({ _id }, { $inc: { count: delta } });
    if (updated) return updated.count;
    try {
      await this.#records.insertOne({ _id, count: delta, expiresAt: new Date((window + 2) * this.windowMs) });
      return delta;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await this.#records.findOneAndUpdate({ _id }, { $inc: { count: delta } }))?.count ?? delta;
    }
  }

  /** Keys can be long (a metadata-document URL as client_id): the record id holds their hash. */
  #id(key: string, window: number): string {
    return `${this.scope}:${window}:${createHash('sha256').update(key).digest('base64url')}`;
  }
}
