import type { Server } from 'node:http';
import { Session } from 'node:inspector/promises';

/** How long a check period is: the hub collects once a whole period has been quiet. */
export const IDLE_CHECK_MS = 10_000;
/** Fewer requests than this in a period is quiet: health probes and scrapes, not traffic. */
export const QUIET_REQUESTS = 10;

interface CollectionLog {
  debug(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * One full collection once the standalone hub has gone quiet after start-up. V8 makes no
 * full collection while a process allocates little, so what start-up left (the garbage of
 * loading and compiling some 1,500 modules) stays resident for as long as the hub idles
 * (issue 42: 122 MB idle where 92 MB are live).
 *
 * Once only: the low-memory collection also drops compiled code, so the calls after it run
 * cold. Made after every busy spell, it would give back some 17 MB resident and cost the next
 * spell's first 2,000 calls 2.4 times the CPU, the 18,000 after them 14% more
 * (bench/idle-collection.ts, 3 December 2026). What a busy spell grows is left to V8.
 *
 * The policy is `check`, called once a period (by `start`, or by a test): a period with at
 * least `QUIET_REQUESTS` requests is busy; the first quiet one collects, and ends the checks.
 */
export class IdleCollection {
  #requests = 0;
  #done = false;
  #timer: NodeJS.Timeout | undefined;
  #server: Server | undefined;

  constructor(
    private readonly collect: () => Promise<void>,
    private readonly log: CollectionLog,
    private readonly quietRequests = QUIET_REQUESTS,
  ) {}

  /** Counts one request (the server's `request` listener while the checks last). */
  readonly served = (): void => {
    this.#requests += 1;
  };

  /** One period's decision; resolves true when it collected. */
  async check(): Promise<boolean> {
    const requests = this.#requests;
    this.#requests = 0;
    if (this.#done || requests >= this.quietRequests) return false;
    this.#done = true;
    this.stop();
    const before = process.memoryUsage().rss;
    try {
      await this.collect();
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'the idle collection failed');
      return false;
    }
    this.log.debug({ rssBeforeMb: megabytes(before), rssAfterMb: megabytes(process.memoryUsage().rss) }, 'collected start-up garbage while idle');
    return true;
  }

  /** Counts `server`'s requests and checks once a period, until the collection is made. */
  start(server: Server, periodMs = IDLE_CHECK_MS): void {
    this.#server = server;
    server.on('request', this.served);
    this.#timer = setInterval(() => void this.check(), periodMs).unref();
  }

  /** Ends the checks, and the count on the request path with them. */
  stop(): void {
    clearInterval(this.#timer);
    this.#server?.off('request', this.served);
    this.#server = undefined;
  }
}

/**
 * Everything collectable, as the inspector's "collect garbage" does it (V8's low-memory
 * collection: repeated full collections, then the freed pages returned): a plain `gc()`
 * leaves more resident and needs `--expose-gc`. The session is this thread's own, opened
 * for the collection only; no port is opened.
 */
export async function collectAllGarbage(): Promise<void> {
  const session = new Session();
  session.connect();
  try {
    // Without the domain enabled, the collection's answer never comes (Node 20).
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.collectGarbage');
    await session.post('HeapProfiler.disable');
  } finally {
    session.disconnect();
  }
}

const megabytes = (bytes: number): number => Math.round(bytes / 104_857.6) / 10;
