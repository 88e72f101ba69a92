import { MongoClient, MongoServerError, type Collection, type Document, type Filter as MongoFilter, type UpdateFilter } from 'mongodb';
import { checkCollectionName, DuplicateKeyError, type Filter, type FindOptions, type IndexOptions, type Store, type StoreCollection, type StoreDocument, type Update } from './port.js';
import { withinLifetime } from './ttl.js';

/** MongoDB's code for a unique index violation. */
const DUPLICATE_KEY = 11000;

/**
 * The store on MongoDB, chosen when `MONGODB_URL` is set: several hub replicas can share
 * it, and `findOneAndUpdate` is atomic on the server. The database is the one named in
 * the URL, `mcp-hub` when it names none.
 */
export async function openMongoStore(url: string): Promise<Store> {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  await client.connect();
  const database = client.db(new URL(url).pathname.replace(/^\//, '') || 'mcp-hub');
  const collections = new Map<string, MongoCollection<StoreDocument>>();
  return {
    kind: 'mongodb',
    collection<T extends StoreDocument>(name: string): StoreCollection<T> {
      checkCollectionName(name);
      let collection = collections.get(name);
      if (!collection) {
        collection = new MongoCollection(database.collection<StoreDocument>(name));
        collections.set(name, collection);
      }
      return collection as unknown as StoreCollection<T>;
    },
    ping: async () => {
      await database.command({ ping: 1 });
    },
    close: () => client.close(),
  };
}

class MongoCollection<T extends StoreDocument> implements StoreCollection<T> {
  readonly #ttlFields = new Map<string, number>();

  constructor(readonly collection: Collection<T>) {}

  async insertOne(document: T): Promise<void> {
    // The driver adds nothing to a document that already has an `_id`; copy anyway so
    // the caller's object is never mutated.
    await duplicates(() => this.collection.insertOne({ ...document } as never));
  }

  async findOne(filter: Filter<T>): Promise<T | null> {
    return (await this.collection.findOne(this.#filter(filter))) as T | null;
  }

  async find(filter: Filter<T>, options: FindOptions<T> = {}): Promise<T[]> {
    let cursor = this.collection.find(this.#filter(filter));
    if (options.sort) cursor = cursor.sort(options.sort as Document);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as T[];
  }

  countDocuments(filter: Filter<T>): Promise<number> {
    return this.collection.countDocuments(this.#filter(filter));
  }

  async findOneAndUpdate(filter: Filter<T>, update: Update<T>): Promise<T | null> {
    const updated = await duplicates(() => this.collection.findOneAndUpdate(this.#filter(filter), update as UpdateFilter<T>, { returnDocument: 'after' }));
    return updated as T | null;
  }

  async updateMany(filter: Filter<T>, update: Update<T>): Promise<number> {
    const result = await duplicates(() => this.collection.updateMany(this.#filter(filter), update as UpdateFilter<T>));
    return result.modifiedCount;
  }

  async deleteOne(filter: Filter<T>): Promise<number> {
    return (await this.collection.deleteOne(this.#filter(filter))).deletedCount;
  }

  async deleteMany(filter: Filter<T>): Promise<number> {
    return (await this.collection.deleteMany(this.#filter(filter))).deletedCount;
  }

  async createIndex(field: keyof T & string, options: IndexOptions = {}): Promise<void> {
    if (options.expireAfterSeconds !== undefined) this.#ttlFields.set(field, options.expireAfterSeconds);
    await this.collection.createIndex(
      { [field]: 1 },
      {
        ...(options.unique ? { unique: true } : {}),
        ...(options.expireAfterSeconds !== undefined ? { expireAfterSeconds: options.expireAfterSeconds } : {}),
      },
    );
  }

  #filter(filter: Filter<T>): MongoFilter<T> {
    return withinLifetime(filter, this.#ttlFields) as MongoFilter<T>;
  }
}

async function duplicates<R>(operation: () => Promise<R>): Promise<R> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) throw new DuplicateKeyError(error.message, { cause: error });
    throw error;
  }
}
