import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { DuplicateKeyError, type Store, type StoreCollection } from '../store/index.js';

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

/**
 * Events per key over a sliding window, shared through the hub's store by every process
 * that uses it (replicas on one MongoDB). Hand-written rather than `@fastify/rate-limit`:
 * its store contract is one increment in the store per request, which on the embedded
 * store is a file write per MCP call, and its key is known before the bearer check that
 * names the client. Here a process counts its own events at once and writes them as one
 * increment at most every SYNC_MS, when the key is next counted, reading the others' in
 * the same step: a busy client costs one store write a second, and what other replicas
 * saw arrives within that second. A store failure leaves the process counting on its own.
 */
export class WindowCounter {
  readonly #records: StoreCollection<CountRecord>;
  readonly #views = new LRUCache<string, KeyView>({ max: MAX_KEYS });
  #indexed: Promise<void> | undefined;

  constructor(
    store: Store,
    private readonly scope: string,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#records = store.collection<CountRecord>('limit-counts');
  }

  async count(key: string): Promise<WindowCount> {
    const view = this.#view(key);
    if (this.now() - view.syncedAt >= SYNC_MS) {
      view.syncing ??= this.#sync(key, view).finally(() => (view.syncing = undefined));
      await view.syncing;
    }
    const now = this.now();
    return { previous: view.previous, current: view.stored + view.pending, elapsedMs: now % this.windowMs, windowMs: this.windowMs };
  }

  add(key: string): void {
    this.#view(key).pending += 1;
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
      this.#indexed ??= this.#records.createIndex('expiresAt', { expireAfterSeconds: 0 });
      await this.#indexed;
      const [stored, previous] = await Promise.all([this.#add(key, window, delta), this.#records.findOne({ _id: this.#id(key, window - 1) })]);
      view.pending -= delta;
      view.stored = stored;
      view.previous = Math.max(view.previous, previous?.count ?? 0);
    } catch {
      // The store is unreachable: this process goes on counting alone, and tries again in SYNC_MS.
      this.#indexed = undefined;
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
