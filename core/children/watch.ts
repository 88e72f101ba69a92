import type { Client } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { ChildWatching, ChildWire } from '../mcp/revision.js';

/** A change a child reported: a list changed, or one resource was updated. */
export type ChildChange = { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string };

/** Resource URIs one child is asked to watch at most; a listen naming more is cut to this many. */
export const MAX_WATCHED_RESOURCES = 1_000;

/**
 * What the hub hears from one child between connections: the listeners, and the resource
 * URIs callers' subscriptions named (counted, so two subscribers share one upstream
 * watch). How a connection is asked for its changes is its revision's (`ChildWire.watch`);
 * whatever it sends arrives through the notification handlers set here.
 */
export class ChildWatch {
  readonly #listeners = new Set<(change: ChildChange) => void>();
  readonly #watched = new Map<string, number>();
  #client: Client | undefined;
  #watching: ChildWatching | undefined;
  #resync: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly log: FastifyBaseLogger,
  ) {}

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
    this.#watching = wire.watch(client);
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
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'could not watch for changes');
    }
  }
}
