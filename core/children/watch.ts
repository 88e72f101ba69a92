import type { Client } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { ChildWatching, ChildWire } from '../revisions/revision.js';
import { readLists } from './child-faces.js';
import type { ChildClock, ClockTimer } from './clock.js';
import { Relister } from './relist.js';
import { backoffDelay, type ChildTimings } from './timings.js';

/** A change a child reported: a list changed, or one resource was updated. */
export type ChildChange = { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string };

/** How a child that cannot be watched is re-listed instead (`Relister`). */
export interface Relisting {
  clock: () => ChildClock;
  timings: () => Pick<ChildTimings, 'relistBaseMs' | 'relistMaxMs' | 'backoffBaseMs' | 'backoffMaxMs'>;
  /** Reads the tool list afresh (the Child tells its listeners of a change); true when it changed. */
  tools(): Promise<boolean>;
}

/** Resource URIs one child is asked to watch at most; a listen naming more is cut to this many. */
export const MAX_WATCHED_RESOURCES = 1_000;

/**
 * What the hub hears from one child between connections: the listeners, and the resource
 * URIs callers' subscriptions named (counted, so two subscribers share one upstream
 * watch). How a connection is asked for its changes is its revision's (`ChildWire.watch`);
 * whatever it sends arrives through the notification handlers set here. A watch that ends
 * unasked (a listen stream closed, cut by a proxy or timed out) is asked for again with
 * the restart back-off, and once it is back the lists are read afresh: what changed in
 * the gap was announced to nobody.
 */
export class ChildWatch {
  readonly #listeners = new Set<(change: ChildChange) => void>();
  readonly #watched = new Map<string, number>();
  #client: Client | undefined;
  #watching: ChildWatching | undefined;
  #resync: Promise<void> = Promise.resolve();
  readonly #relister: Relister | undefined;
  /** The prompt and resource lists as last re-listed, to tell a change by. */
  #listed: Record<string, string> | undefined;
  /** Why the watch is down while it is being asked for again; undefined while it holds. */
  #lost: string | undefined;
  #reopenAttempts = 0;
  #reopenTimer: ClockTimer | undefined;
  /** The prompt and resource lists as they were when the watch ended, to tell what changed in the gap by. */
  #beforeGap: Promise<Record<string, string> | undefined> | undefined;

  constructor(
    private readonly name: string,
    private readonly log: FastifyBaseLogger,
    private readonly relisting?: Relisting,
  ) {
    this.#relister = relisting && new Relister(relisting.clock, relisting.timings, () => this.#relist(), log);
  }

  /**
   * Whether the connection refused to be watched: its list changes are then found by
   * re-listing, and resource updates cannot be heard (callers are not offered them).
   */
  get unwatchable(): boolean {
    return this.#relister?.running ?? false;
  }

  /** Why the watch of a connected child is down (it ended and is being asked for again), if it is. */
  get lost(): string | undefined {
    return this.#lost;
  }

  onChange(listener: (change: ChildChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: ChildChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (error) {
        this.log.warn({ err: (error as Error).message }, 'change listener failed');
      }
    }
  }

  /** Watches `uri` until the returned release is called (idempotent). */
  watchResource(uri: string): () => void {
    const count = this.#watched.get(uri);
    if (count === undefined && this.#watched.size >= MAX_WATCHED_RESOURCES) return () => undefined;
    this.#watched.set(uri, (count ?? 0) + 1);
    if (count === undefined) this.#scheduleResync();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const remaining = (this.#watched.get(uri) ?? 1) - 1;
      if (remaining > 0) return void this.#watched.set(uri, remaining);
      this.#watched.delete(uri);
      this.#scheduleResync();
    };
  }

  /**
   * A new connection: hear what it says unasked. The tools notification is the Child's
   * (it refreshes the list first).
   */
  listenTo(client: Client, wire: ChildWire): void {
    this.#client = client;
    this.#watching = wire.watch(client, (reason) => this.#ended(client, reason));
    client.setNotificationHandler('notifications/prompts/list_changed', async () => this.#from(client, { kind: 'prompts' }));
    client.setNotificationHandler('notifications/resources/list_changed', async () => this.#from(client, { kind: 'resources' }));
    client.setNotificationHandler('notifications/resources/updated', async (notification) => this.#from(client, { kind: 'resource', uri: notification.params.uri }));
  }

  /**
   * Asks the adopted connection for its changes (a listen stream, or subscriptions) in the
   * background: a child that never acknowledges delays only the watch, never a caller.
   */
  startWatching(client: Client): void {
    if (client === this.#client) this.#scheduleResync();
  }

  detach(): void {
    this.#client = undefined;
    this.#watching = undefined;
    this.#relister?.stop();
    this.#listed = undefined;
    this.#lost = undefined;
    this.#reopenAttempts = 0;
    this.relisting?.clock().clearTimeout(this.#reopenTimer);
    this.#reopenTimer = undefined;
    this.#beforeGap = undefined;
  }

  /** The watch ended unasked: said in the log and in `lost`, and asked for again after the back-off. */
  #ended(client: Client, reason: string): void {
    if (client !== this.#client || this.#lost !== undefined) return;
    this.#lost = `the listen to the server ended (${reason}); reopening it`;
    this.log.warn({ reason }, 'the listen to the server ended; reopening it');
    this.#beforeGap = this.#fingerprints(client).catch(() => undefined);
    this.#reopenLater();
  }

  #reopenLater(): void {
    if (!this.relisting) return;
    this.#reopenAttempts += 1;
    const clock = this.relisting.clock();
    clock.clearTimeout(this.#reopenTimer);
    this.#reopenTimer = clock.setTimeout(
      () => {
        this.#reopenTimer = undefined;
        this.#scheduleResync();
      },
      backoffDelay(this.#reopenAttempts, this.relisting.timings()),
    );
  }

  /**
   * The watch is back after a gap: the lists are read afresh and callers hear of what
   * differs, and every watched resource counts as updated (its updates in the gap are unknown).
   */
  async #caughtUp(client: Client): Promise<void> {
    const gap = this.#lost;
    this.#lost = undefined;
    this.#reopenAttempts = 0;
    const before = await this.#beforeGap;
    this.#beforeGap = undefined;
    this.log.info({ gap }, 'the listen to the server is open again; re-listing what may have changed meanwhile');
    try {
      await this.relisting?.tools();
      const after = await this.#fingerprints(client);
      if (client !== this.#client) return;
      if (before?.prompts === undefined || before.prompts !== after?.prompts) this.emit({ kind: 'prompts' });
      if (before?.resources === undefined || before.resources !== after?.resources) this.emit({ kind: 'resources' });
      for (const uri of this.#watched.keys()) this.emit({ kind: 'resource', uri });
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 're-listing after the listen was reopened failed');
    }
  }

  #from(client: Client, change: ChildChange): void {
    if (client === this.#client) this.emit(change);
  }

  #scheduleResync(): void {
    const client = this.#client;
    if (!client) return;
    this.#resync = this.#resync.then(() => (client === this.#client ? this.#sync(client) : undefined));
  }

  async #sync(client: Client): Promise<void> {
    const capabilities = client.getServerCapabilities();
    const uris = capabilities?.resources?.subscribe ? [...this.#watched.keys()] : [];
    try {
      await this.#watching?.update(uris);
      this.#relister?.stop();
    } catch (error) {
      if (client !== this.#client) return;
      if (this.#lost !== undefined) {
        this.log.warn({ err: (error as Error).message }, 'could not reopen the listen to the server; trying again');
        return this.#reopenLater();
      }
      this.log.warn({ err: (error as Error).message }, this.#relister ? 'could not watch for changes; re-listing instead' : 'could not watch for changes');
      if (this.#relister && !this.#relister.running) {
        this.#listed = await this.#fingerprints(client);
        if (client === this.#client) this.#relister.start();
      }
      return;
    }
    if (this.#lost !== undefined && client === this.#client) await this.#caughtUp(client);
  }

  /** One re-listing: the tools through the Child, the prompts and resources here; true when any changed. */
  async #relist(): Promise<boolean> {
    const client = this.#client;
    if (!client || !this.relisting) return false;
    const toolsChanged = await this.relisting.tools();
    const listed = await this.#fingerprints(client);
    if (client !== this.#client || listed === undefined) return toolsChanged;
    const before = this.#listed;
    this.#listed = listed;
    if (before === undefined) return toolsChanged;
    const prompts = listed.prompts !== before.prompts;
    const resources = listed.resources !== before.resources;
    if (prompts) this.emit({ kind: 'prompts' });
    if (resources) this.emit({ kind: 'resources' });
    return toolsChanged || prompts || resources;
  }

  async #fingerprints(client: Client): Promise<Record<string, string> | undefined> {
    const lists = await readLists(client, AbortSignal.timeout(this.relisting?.timings().relistBaseMs ?? 5_000));
    if (lists === undefined) return undefined;
    return { prompts: JSON.stringify(lists.prompts ?? []), resources: JSON.stringify([lists.resources ?? [], lists.resourceTemplates ?? []]) };
  }
}
