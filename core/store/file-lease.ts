import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { lock } from 'proper-lockfile';
import { PRIVATE_FOLDER_MODE } from './private-files.js';

/** Longest this process keeps the lock while it is busy. */
const MAX_HOLD_MS = 25;
/** After a full turn, the lock stays free this long, so that a waiting process's retry lands. */
const YIELD_MS = 5;
/** The lock is kept this long after the last operation, for the caller's next one. */
const LINGER_MS = 2;

/**
 * The embedded store's inter-process lock, held as a lease. Taking and dropping the file
 * lock costs two directory operations, several times the cost of the write it guards,
 * and one token rotation is three writes with reads between them. So the lock is taken
 * once for a burst of operations from this process (operations on different collections
 * may run side by side under it; each collection orders its own), and dropped LINGER_MS
 * after the last one, or after MAX_HOLD_MS when the burst goes on, so that `hub-admin`
 * beside a busy hub still gets its turn. Every operation completes its own write before
 * it resolves: nothing is deferred, only the lock changes hands less often.
 */
export class FileLease {
  readonly #path: string;
  #held: Promise<() => Promise<void>> | undefined;
  #heldSince = 0;
  /** Operations running under the lock, or waiting for it to be taken. */
  #active = 0;
  /** While set, the lock is being handed back; new operations wait for it. */
  #handover: Promise<void> | undefined;
  #idle: (() => void) | undefined;
  #linger: NodeJS.Timeout | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  /** Runs `operation` while this process holds the file lock. */
  async run<R>(operation: () => Promise<R>): Promise<R> {
    for (;;) {
      if (this.#handover) await this.#handover;
      else if (this.#held && Date.now() - this.#heldSince >= MAX_HOLD_MS) this.#handover = this.#handBack(YIELD_MS);
      else break;
    }
    clearTimeout(this.#linger);
    this.#active++;
    try {
      await this.#take();
      return await operation();
    } finally {
      this.#active--;
      if (this.#active === 0) {
        this.#idle?.();
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a hand-back may have begun while the operation ran; the compiler keeps the loop's check
        if (!this.#handover && this.#held) this.#scheduleDrop();
      }
    }
  }

  /** Waits for running operations and releases the lock. */
  async close(): Promise<void> {
    while (this.#handover) await this.#handover;
    this.#handover = this.#handBack(0);
    await this.#handover;
  }

  #take(): Promise<() => Promise<void>> {
    this.#held ??= lock(this.#path, { realpath: false, stale: 10_000, retries: { retries: 200, minTimeout: 2, maxTimeout: 50 }, fs: privateLockFolders }).then(
      (release) => {
        this.#heldSince = Date.now();
        return release;
      },
      (error: unknown) => {
        this.#held = undefined;
        throw error;
      },
    );
    return this.#held;
  }

  #scheduleDrop(): void {
    this.#linger = setTimeout(() => {
      if (this.#active === 0 && !this.#handover && this.#held) this.#handover = this.#handBack(0);
    }, LINGER_MS);
    this.#linger.unref();
  }

  /** Lets running operations finish, releases the lock, keeps it free for `pause` ms. */
  async #handBack(pause: number): Promise<void> {
    clearTimeout(this.#linger);
    if (this.#active > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    this.#idle = undefined;
    const held = this.#held;
    this.#held = undefined;
    try {
      const release = await held?.catch(() => undefined);
      // A lock that cannot be released is one that is already gone (removed as stale).
      await release?.().catch(() => undefined);
      if (pause > 0) await sleep(pause);
    } finally {
      this.#handover = undefined;
    }
  }
}

/** The lock is a folder proper-lockfile creates: owner-only like everything under DATA_PATH. */
const privateLockFolders = { ...fs, mkdir: (path: string, callback: (error: NodeJS.ErrnoException | null) => void) => fs.mkdir(path, { mode: PRIVATE_FOLDER_MODE }, callback) };
