import type { OAuthDiscoveryState, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { DuplicateKeyError, type Store, type StoreCollection } from '../../core/plugin/store.js';

/** A client identity at the upstream's authorization server; the RFC 7592 fields when registered dynamically. */
export interface UpstreamClient {
  client_id: string;
  client_secret?: string;
  issuer?: string;
  registration_access_token?: string;
  registration_client_uri?: string;
}

/**
 * The deployment's credentials toward one upstream, keyed by server name. The parts are
 * JSON text because they hold documents from the upstream whose keys the embedded store
 * could not take as field names.
 */
export interface UpstreamRecord {
  _id: string;
  client?: string;
  tokens?: string;
  discovery?: string;
  /** Until when (ms since the epoch) one hub process holds the right to spend the refresh token. */
  leaseUntil?: number;
}

/** A login under way: the hash of its `state`, the PKCE verifier, until it expires. */
export interface PendingLogin {
  _id: string;
  server: string;
  verifier: string;
  expiresAt: Date;
}

export interface Collections {
  upstreams: StoreCollection<UpstreamRecord>;
  pending: StoreCollection<PendingLogin>;
}

export function collections(store: Store): Collections {
  return {
    upstreams: store.collection<UpstreamRecord>('upstream_oauth'),
    pending: store.collection<PendingLogin>('upstream_oauth_pending'),
  };
}

export async function createIndexes(c: Collections): Promise<void> {
  await c.pending.createIndex('expiresAt', { expireAfterSeconds: 0 });
}

/** Typed access to one upstream's record. */
export class UpstreamState {
  constructor(
    private readonly collection: StoreCollection<UpstreamRecord>,
    readonly server: string,
  ) {}

  async client(): Promise<UpstreamClient | undefined> {
    return parse((await this.#record())?.client) as UpstreamClient | undefined;
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return parse((await this.#record())?.tokens) as StoredOAuthTokens | undefined;
  }

  async discovery(): Promise<OAuthDiscoveryState | undefined> {
    return parse((await this.#record())?.discovery) as OAuthDiscoveryState | undefined;
  }

  async set(part: 'client' | 'tokens' | 'discovery', value: object | undefined): Promise<void> {
    const update = value === undefined ? { $unset: { [part]: true as const } } : { $set: { [part]: JSON.stringify(value) } };
    if (await this.collection.findOneAndUpdate({ _id: this.server }, update)) return;
    if (value === undefined) return;
    try {
      await this.collection.insertOne({ _id: this.server, [part]: JSON.stringify(value) });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      await this.collection.findOneAndUpdate({ _id: this.server }, update);
    }
  }

  /**
   * Takes the lease on this upstream's credentials for `ms`, unless another process (a
   * replica on the same MongoDB, or hub-admin) holds a live one. True when taken, or
   * when there is no record (nothing to spend).
   */
  async tryLease(ms: number): Promise<boolean> {
    const now = Date.now();
    const taken = await this.collection.findOneAndUpdate({ _id: this.server, $or: [{ leaseUntil: { $exists: false } }, { leaseUntil: { $lt: now } }] }, { $set: { leaseUntil: now + ms } });
    return taken !== null || (await this.#record()) === null;
  }

  async releaseLease(): Promise<void> {
    await this.collection.findOneAndUpdate({ _id: this.server }, { $unset: { leaseUntil: true } });
  }

  async clear(): Promise<void> {
    await this.collection.deleteOne({ _id: this.server });
  }

  #record(): Promise<UpstreamRecord | null> {
    return this.collection.findOne({ _id: this.server });
  }
}

function parse(text: string | undefined): unknown {
  return text === undefined ? undefined : JSON.parse(text);
}
