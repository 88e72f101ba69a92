import { HUB_ERROR_CODES, HubError } from '../errors.js';

/**
 * The store port: a small Mongo-shaped document interface that both adapters (the
 * embedded file store and MongoDB) implement with the same semantics, checked by one
 * contract test suite. Plugins keep their records here (client registrations, token
 * families, revocation markers, outbound credentials).
 *
 * Documents carry their own string `_id`, chosen by the caller (often a hash of a
 * secret), so that a lookup by `_id` is a primary-key lookup on both backends.
 */
export interface StoreDocument {
  _id: string;
}

/** A plain value, or a value compared with an operator. */
export type FieldCondition<V> =
  | V
  | {
      $eq?: V;
      $ne?: V;
      $in?: readonly V[];
      $nin?: readonly V[];
      $lt?: V;
      $lte?: V;
      $gt?: V;
      $gte?: V;
      $exists?: boolean;
    };

/** A conjunction of field conditions, as in MongoDB; `$or` for the occasional union. */
export type Filter<T> = { [K in keyof T]?: FieldCondition<T[K]> } & { $or?: Filter<T>[] };

/** Update operators shared by both backends. */
export interface Update<T> {
  $set?: Partial<T>;
  $unset?: { [K in keyof T]?: true };
  $inc?: { [K in keyof T]?: number };
}

export interface FindOptions<T> {
  sort?: { [K in keyof T]?: 1 | -1 };
  limit?: number;
}

export interface IndexOptions {
  unique?: boolean;
  /**
   * A TTL index on a Date field: a document is gone once `field + expireAfterSeconds`
   * has passed. Expired documents are never returned or updated by any operation, on
   * either backend, even before they are physically removed.
   */
  expireAfterSeconds?: number;
}

export interface ReadOptions {
  /**
   * `bounded`: a miss may be as old as the store's staleness bound (the embedded store's
   * MAX_STALENESS_MS), for a lookup on every request whose usual answer is "none" (a
   * revocation). Without it a miss is confirmed against what other processes wrote, so a
   * record written by another replica a moment ago is found.
   */
  staleness?: 'bounded';
}

export interface StoreCollection<T extends StoreDocument> {
  /** Throws DuplicateKeyError when `_id` or a unique index field is taken. */
  insertOne(document: T): Promise<void>;
  findOne(filter: Filter<T>, options?: ReadOptions): Promise<T | null>;
  find(filter: Filter<T>, options?: FindOptions<T>): Promise<T[]>;
  /** How many documents match, without reading them (for caps on what clients can grow). */
  countDocuments(filter: Filter<T>): Promise<number>;
  /**
   * Atomically updates the first document matching `filter` and returns it as it is
   * after the update, or null when nothing matched. Because the match and the update
   * are one step, a filter on the current state (for example "this refresh token is
   * still current") makes the update conditional: of many concurrent callers, exactly
   * one wins.
   */
  findOneAndUpdate(filter: Filter<T>, update: Update<T>): Promise<T | null>;
  /** Returns the number of documents updated. */
  updateMany(filter: Filter<T>, update: Update<T>): Promise<number>;
  /** Returns the number of documents deleted (0 or 1). */
  deleteOne(filter: Filter<T>): Promise<number>;
  deleteMany(filter: Filter<T>): Promise<number>;
  /** Idempotent; call it at start-up for every index a plugin relies on. */
  createIndex(field: keyof T & string, options?: IndexOptions): Promise<void>;
}

export interface Store {
  /** Which adapter this is, for logs (`embedded` or `mongodb`). */
  readonly kind: string;
  collection<T extends StoreDocument>(name: string): StoreCollection<T>;
  /** Resolves when the store can be used now (its folder is writable, its server answers); for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Raised by inserts and updates that would break a unique index. */
export class DuplicateKeyError extends HubError {
  override readonly name = 'DuplicateKeyError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(HUB_ERROR_CODES.DUPLICATE_KEY, message, options);
  }
}

/** Collection names become file names and MongoDB collection names. */
export const COLLECTION_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,63}$/;

export function checkCollectionName(name: string): void {
  if (!COLLECTION_NAME_PATTERN.test(name)) throw new HubError(HUB_ERROR_CODES.STORE_NAME_INVALID, `invalid store collection name "${name}"`);
}
