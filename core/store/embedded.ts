import { statSync, watch, type FSWatcher } from 'node:fs';
import { access, constants } from 'node:fs/promises';
import { join } from 'node:path';
import NedbModule from '@seald-io/nedb';
import { makePrivateFolder, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from './private-files.js';
import {
  checkCollectionName,
  DuplicateKeyError,
  type Filter,
  type FindOptions,
  type IndexOptions,
  type ReadOptions,
  type Store,
  type StoreCollection,
  type StoreDocument,
  type Update,
} from './port.js';
import { FileLease } from './file-lease.js';
import { withinLifetime } from './ttl.js';

// The package is CommonJS whose typings declare an ES default export: at run time the
// default import is the class itself.
const Nedb = NedbModule as unknown as typeof NedbModule.default;
type Nedb<T> = NedbModule.default<T>;

/** The most `_id`s a collection remembers as absent; past it, it starts over (see `#absent`). */
const ABSENT_IDS = 10_000;
/** How often expired documents are removed and the append-only file is compacted. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/**
 * The longest a read goes on from what this process last read of a file without looking
 * whether another process changed it, when the file system does not say (no watcher).
 */
export const MAX_STALENESS_MS = 1000;

export interface EmbeddedStoreOptions {
  /** The time in ms; tests pass their own to cross the staleness bound without waiting. */
  now?: () => number;
  /** Hear other processes' writes from the file system (default true); without, only the bound applies. */
  watch?: boolean;
}

/**
 * The default store: one NeDB file per collection under `<DATA_PATH>/store/`. No server
 * to install. NeDB itself is single-process, but `hub-admin` runs beside a running hub on
 * the same files, so every write holds the store's inter-process lock (see file-lease.ts)
 * and first reloads the file when another process changed it since this one last saw it.
 * Reads do no file-system work of their own: a watcher on the folder says when a file
 * changed, and the next read of it reloads it; where the file system says nothing (a
 * network file system), a read looks at most every MAX_STALENESS_MS. A write from
 * `hub-admin` (a revocation marker, say) is therefore seen by the hub's next request
 * where the file system reports changes, and within a second everywhere.
 */
export async function openEmbeddedStore(directory: string, options: EmbeddedStoreOptions = {}): Promise<Store> {
  await makePrivateFolder(directory);
  const now = options.now ?? Date.now;
  const collections = new Map<string, EmbeddedCollection<StoreDocument>>();
  const lease = new FileLease(join(directory, 'store'));
  const watcher =
    options.watch === false
      ? undefined
      : watchFolder(directory, (file) => {
          const changed = file === undefined ? undefined : collections.get(file.replace(/\.db~?$/, ''));
          for (const collection of changed ? [changed] : collections.values()) collection.changed();
        });
  return {
    kind: 'embedded',
    collection<T extends StoreDocument>(name: string): StoreCollection<T> {
      checkCollectionName(name);
      let collection = collections.get(name);
      if (!collection) {
        collection = new EmbeddedCollection(join(directory, `${name}.db`), lease, now);
        collections.set(name, collection);
      }
      return collection as unknown as StoreCollection<T>;
    },
    ping: () => access(directory, constants.W_OK),
    async close() {
      watcher?.close();
      await Promise.all([...collections.values()].map((collection) => collection.close()));
      collections.clear();
      await lease.close();
    },
  };
}

/** Calls `onChange` with the name of a file of `directory` that changed (undefined: some file); undefined when the folder cannot be watched. */
function watchFolder(directory: string, onChange: (file: string | undefined) => void): FSWatcher | undefined {
  try {
    const watcher = watch(directory, { persistent: false }, (_event, file) => onChange(file ?? undefined));
    // A watcher that fails (its folder removed, the system out of watches) leaves the bound to do the work.
    watcher.on('error', () => {
      watcher.close();
      onChange(undefined);
    });
    return watcher;
  } catch {
    return undefined;
  }
}

class EmbeddedCollection<T extends StoreDocument> implements StoreCollection<T> {
  readonly #file: string;
  readonly #lease: FileLease;
  readonly #db: Nedb<T>;
  readonly #ttlFields = new Map<string, number>();
  readonly #ready: Promise<void>;
  readonly #sweeper: NodeJS.Timeout;
  /** The file as this process last left it: inode, size and modification time. */
  #seen = '';
  /** When a read last compared the file with `#seen`; a change the watcher heard of resets it. */
  #lookedAt = Number.NEGATIVE_INFINITY;
  readonly #now: () => number;
  /** Orders this collection's locked sections (other collections' may run alongside). */
  #tail: Promise<unknown> = Promise.resolve();
  /**
   * `_id`s a bounded-staleness lookup found absent in the documents as loaded now: the
   * revocation lookup every request makes is a set lookup, not a NeDB query. Forgotten
   * whenever the documents may change (a reload, a write: `#loads` counts both); expiry
   * only ever hides documents, so an absent one stays absent as time passes.
   */
  readonly #absent = new Set<string>();
  #loads = 0;

  constructor(file: string, lease: FileLease, now: () => number) {
    this.#file = file;
    this.#lease = lease;
    this.#now = now;
    this.#db = new Nedb<T>({ filename: file, modes: { fileMode: PRIVATE_FILE_MODE, dirMode: PRIVATE_FOLDER_MODE } });
    this.#ready = this.#locked(() => Promise.resolve());
    this.#sweeper = setInterval(() => void this.#sweep('always').catch(() => undefined), SWEEP_INTERVAL_MS);
    this.#sweeper.unref();
  }

  async insertOne(document: T): Promise<void> {
    await this.#write(() => this.#db.insertAsync(document));
  }

  async findOne(filter: Filter<T>, options: ReadOptions = {}): Promise<T | null> {
    await this.#fresh();
    const id = options.staleness === 'bounded' ? idOnly(filter) : undefined;
    if (id !== undefined && this.#absent.has(id)) return null;
    const loads = this.#loads;
    const found = await this.#findOne(filter);
    // A reload or write that ran meanwhile may have brought the document: only a miss on what is loaded now is remembered.
    if (!found && id !== undefined && loads === this.#loads) {
      if (this.#absent.size >= ABSENT_IDS) this.#absent.clear();
      this.#absent.add(id);
    }
    if (found || options.staleness === 'bounded' || this.#signature() === this.#seen) return found;
    // A miss may be another process's write that the watcher has not told of yet (a client
    // registered, a token issued through another replica a moment ago): reload and look again.
    await this.#locked(() => Promise.resolve());
    return this.#findOne(filter);
  }

  /** nedb's types say a findOne resolves to a document; on a miss it resolves to null. */
  async #findOne(filter: Filter<T>): Promise<T | null> {
    return this.#db.findOneAsync(this.#visible(filter));
  }

  async find(filter: Filter<T>, options: FindOptions<T> = {}): Promise<T[]> {
    await this.#fresh();
    let cursor = this.#db.findAsync(this.#visible(filter));
    if (options.sort) cursor = cursor.sort(options.sort);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return await cursor;
  }

  async countDocuments(filter: Filter<T>): Promise<number> {
    await this.#fresh();
    return this.#db.countAsync(this.#visible(filter));
  }

  async findOneAndUpdate(filter: Filter<T>, update: Update<T>): Promise<T | null> {
    const result = await this.#write(() => this.#db.updateAsync(this.#visible(filter), update, { multi: false, returnUpdatedDocs: true }));
    return result.affectedDocuments ?? null;
  }

  async updateMany(filter: Filter<T>, update: Update<T>): Promise<number> {
    const result = await this.#write(() => this.#db.updateAsync(this.#visible(filter), update, { multi: true }));
    return result.numAffected;
  }

  deleteOne(filter: Filter<T>): Promise<number> {
    return this.#write(() => this.#db.removeAsync(this.#visible(filter), { multi: false }));
  }

  deleteMany(filter: Filter<T>): Promise<number> {
    return this.#write(() => this.#db.removeAsync(this.#visible(filter), { multi: true }));
  }

  async createIndex(field: keyof T & string, options: IndexOptions = {}): Promise<void> {
    // TTL is applied by this adapter (see ttl.ts), not by NeDB, so that reads never write.
    if (options.expireAfterSeconds !== undefined) this.#ttlFields.set(field, options.expireAfterSeconds);
    await this.#write(() => this.#db.ensureIndexAsync({ fieldName: field, unique: options.unique ?? false }));
    // Documents that expired while no process had the TTL registered go now. The file is
    // rewritten only if some did: a start-up rewrite of every collection is many fsyncs.
    if (options.expireAfterSeconds !== undefined) await this.#sweep('after-removal');
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await this.#tail;
  }

  #visible(filter: Filter<T>): Filter<T> {
    return withinLifetime(filter, this.#ttlFields);
  }

  /** Removes expired documents, and compacts the append-only file always or only after a removal. */
  async #sweep(compact: 'always' | 'after-removal'): Promise<void> {
    await this.#write(async () => {
      let removed = 0;
      for (const [field, seconds] of this.#ttlFields) {
        removed += await this.#db.removeAsync({ [field]: { $lte: new Date(Date.now() - seconds * 1000) } }, { multi: true });
      }
      if (compact === 'always' || removed > 0) await this.#db.compactDatafileAsync();
    });
  }

  /** The file changed on disk (as the watcher heard): the next read looks. */
  changed(): void {
    this.#lookedAt = Number.NEGATIVE_INFINITY;
  }

  /**
   * Before a read: reload when another process wrote since this one last looked, looking
   * only when the watcher heard of a change or MAX_STALENESS_MS has passed.
   */
  async #fresh(): Promise<void> {
    await this.#ready;
    const now = this.#now();
    if (now - this.#lookedAt < MAX_STALENESS_MS) return;
    this.#lookedAt = now;
    if (this.#signature() !== this.#seen) await this.#locked(() => Promise.resolve());
  }

  async #write<R>(operation: () => Promise<R>): Promise<R> {
    await this.#ready;
    return this.#locked(operation);
  }

  /**
   * Runs `operation` holding the store's lease, after reloading the file if someone else
   * changed it, and records the file's state afterwards.
   */
  #locked<R>(operation: () => Promise<R>): Promise<R> {
    const run = this.#tail.then(() =>
      this.#lease.run(async () => {
        // While no regular file is in place, every read says so rather than serving what was loaded before.
        let unreadable = false;
        this.#forgetAbsent();
        try {
          if (this.#signature() !== this.#seen) {
            unreadable = !this.#isRegularFile();
            if (unreadable) throw new Error(`the store's file ${this.#file} is not a regular file (a folder or something else is in its place): move it away or restore the file`);
            await this.#db.loadDatabaseAsync();
          }
          return await operation();
        } catch (error) {
          throw translate(error);
        } finally {
          this.#forgetAbsent();
          this.#seen = unreadable ? '' : this.#signature();
          if (unreadable) this.#lookedAt = Number.NEGATIVE_INFINITY;
        }
      }),
    );
    this.#tail = run.catch(() => undefined);
    return run;
  }

  #forgetAbsent(): void {
    this.#loads += 1;
    this.#absent.clear();
  }

  /**
   * NeDB reads the file through a stream whose error it does not listen to: a folder (or
   * anything else that is not a file) in the file's place would throw EISDIR outside every
   * promise and end the process. Looked at first, so the read fails on its error path.
   */
  #isRegularFile(): boolean {
    const stat = statSync(this.#file, { throwIfNoEntry: false });
    return stat === undefined || stat.isFile();
  }

  #signature(): string {
    const stat = statSync(this.#file, { throwIfNoEntry: false });
    return stat ? `${stat.ino}:${stat.size}:${stat.mtimeMs}` : 'absent';
  }
}

function translate(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && (error as { errorType?: unknown }).errorType === 'uniqueViolated') {
    return new DuplicateKeyError((error as Error).message, { cause: error });
  }
  return error;
}

/** The `_id` a filter looks up and nothing else, if that is all it does. */
function idOnly(filter: object): string | undefined {
  let id: unknown;
  for (const key in filter) {
    if (key !== '_id') return undefined;
    id = (filter as { _id?: unknown })._id;
  }
  return typeof id === 'string' ? id : undefined;
}
