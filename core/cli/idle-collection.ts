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
 * One full collection when the standalone hub goes quiet after start-up or after a busy
 * spell. V8 makes no full collection while a process allocates little, so the pages that
 * start-up or a burst of calls grew stay resident for as long as the hub idles (issue 42:
 * 122 MB idle where 92 MB are live, twice idle after a minute of load). One collection per
 * quiet spell gives them back; a hub that keeps serving is never paused for one.
 *
 * The policy is `check`, called once a period (by `start`, or by a test): a period with at
 * least `QUIET_REQUESTS` requests is busy; the first quiet period after start-up or after a
 * busy one collects.
 */
export class IdleCollection {
  #requests = 0;
  #pending = true;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly collect: () => Promise<void>,
    private readonly log: CollectionLog,
    private readonly quietRequests = QUIET_REQUESTS,
  ) {}

  /** Counts one request (an http server's `request` listener). */
  readonly served = (): void => {
    this.#requests += 1;
  };

  /** One period's decision; resolves true when it collected. */
  async check(): Promise<boolean> {
    const requests = this.#requests;
    this.#requests = 0;
    if (requests >= this.quietRequests) {
      this.#pending = true;
      return false;
    }
    if (!this.#pending) return false;
    this.#pending = false;
    const before = process.memoryUsage().rss;
    try {
      await this.collect();
    } catch (error) {
      this.log.warn({ err: (error as Error).message }, 'the idle collection failed');
      return false;
    }
    this.log.debug({ rssBeforeMb: megabytes(before), rssAfterMb: megabytes(process.memoryUsage().rss) }, 'collected garbage while idle');
    return true;
  }

  start(periodMs = IDLE_CHECK_MS): void {
    this.#timer = setInterval(() => void this.check(), periodMs).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
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
