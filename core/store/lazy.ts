import type { Filter, FindOptions, IndexOptions, ReadOptions, Store, StoreCollection, StoreDocument, Update } from './port.js';

/**
 * A store that opens on its first operation, so a hub that never needs one creates no
 * files and holds no connection. `collection()` stays synchronous; each operation waits
 * for the open. A failed open is retried by the next operation.
 */
export function lazyStore(kind: string, open: () => Promise<Store>): Store {
  let opened: Promise<Store> | undefined;
  const store = (): Promise<Store> => {
    opened ??= open().catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  };
  return {
    kind,
    collection<T extends StoreDocument>(name: string): StoreCollection<T> {
      // Resolved once per opened store: the per-request lookups (a revocation) skip the name check and the map.
      let resolved: { from: Promise<Store>; collection: StoreCollection<T> } | undefined;
      const collection = async (): Promise<StoreCollection<T>> => {
        const from = store();
        if (resolved?.from === from) return resolved.collection;
        const opened = (await from).collection<T>(name);
        resolved = { from, collection: opened };
        return opened;
      };
      return {
        insertOne: async (document: T) => (await collection()).insertOne(document),
        findOne: async (filter: Filter<T>, options?: ReadOptions) => (await collection()).findOne(filter, options),
        find: async (filter: Filter<T>, options?: FindOptions<T>) => (await collection()).find(filter, options),
        countDocuments: async (filter: Filter<T>) => (await collection()).countDocuments(filter),
        findOneAndUpdate: async (filter: Filter<T>, update: Update<T>) => (await collection()).findOneAndUpdate(filter, update),
        updateMany: async (filter: Filter<T>, update: Update<T>) => (await collection()).updateMany(filter, update),
        deleteOne: async (filter: Filter<T>) => (await collection()).deleteOne(filter),
        deleteMany: async (filter: Filter<T>) => (await collection()).deleteMany(filter),
        createIndex: async (field: keyof T & string, options?: IndexOptions) => (await collection()).createIndex(field, options),
      };
    },
    ping: async () => (await store()).ping(),
    async close() {
      const pending = opened;
      opened = undefined;
      if (pending) await (await pending.catch(() => undefined))?.close();
    },
  };
}
