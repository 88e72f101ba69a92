import { UpstreamError, redact } from '../errors.js';
import { ResponseCache } from './cache.js';

export interface ServiceClientOptions {
  /** The service's name in error texts, e.g. "geocoder_a"; never a backing product's name (the specification forbids it). */
  service: string;
  userAgent: string;
  /** Minimum spacing between the starts of two requests; 0 disables spacing. */
  minIntervalMs: number;
  /** Requests in flight at once; Infinity for no limit. */
  maxConcurrent: number;
  timeoutMs: number;
  cache: ResponseCache;
  /** Values that must never appear in an error text (API keys). */
  secrets?: readonly string[];
  /** The time and the wait the spacing runs on; tests pass their own to see the policy, not the clock. */
  clock?: SpacingClock;
}

export interface SpacingClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const systemClock: SpacingClock = { now: Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

export interface RequestSpec {
  url: URL;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Part of the cache key for a request whose URL is not the whole question (a POST). */
  cacheKey?: string;
  /** Statuses whose body is still a meaningful JSON answer (OSRM's 400 NoRoute, for one). */
  acceptStatuses?: readonly number[];
}

const ERROR_BODY_LIMIT = 200;

/**
 * One upstream service as its policies require: an identifying User-Agent, spacing
 * between requests, a concurrency cap, a timeout, a response cache, no redirects, and
 * error texts cleaned of HTML and secrets.
 */
export class ServiceClient {
  #nextStart = 0;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly options: ServiceClientOptions) {}

  get service(): string {
    return this.options.service;
  }

  async json(spec: RequestSpec): Promise<unknown> {
    const key = `${spec.method ?? 'GET'} ${spec.url.href} ${spec.cacheKey ?? spec.body ?? ''}`;
    const cached = this.options.cache.get(key);
    if (cached !== undefined) return cached;
    await this.#acquire();
    try {
      await this.#space();
      const value = await this.#send(spec);
      this.options.cache.set(key, value);
      return value;
    } finally {
      this.#release();
    }
  }

  async #send(spec: RequestSpec): Promise<unknown> {
    const { service, userAgent, timeoutMs } = this.options;
    let response: Response;
    try {
      response = await fetch(spec.url, {
        method: spec.method ?? 'GET',
        headers: { 'user-agent': userAgent, accept: 'application/json', ...spec.headers },
        body: spec.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new UpstreamError(service, undefined, timedOut ? `no answer within ${timeoutMs} ms` : 'the service could not be reached', { cause: error, unreachable: !timedOut });
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      throw new UpstreamError(service, response.status, 'redirect not followed');
    }
    const text = await readText(response, service, timeoutMs);
    if (!response.ok && !spec.acceptStatuses?.includes(response.status)) {
      throw new UpstreamError(service, response.status, this.#describeBody(response, text));
    }
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new UpstreamError(service, response.status, 'the answer was not JSON', { cause: error });
    }
  }

  #describeBody(response: Response, text: string): string {
    const type = response.headers.get('content-type') ?? '';
    const trimmed = text.trim();
    if (trimmed === '' || type.includes('html') || trimmed.startsWith('<')) return 'no usable error message';
    const flat = redact(trimmed.replace(/\s+/g, ' '), this.options.secrets ?? []);
    return flat.length > ERROR_BODY_LIMIT ? `${flat.slice(0, ERROR_BODY_LIMIT)}…` : flat;
  }

  async #space(): Promise<void> {
    const interval = this.options.minIntervalMs;
    if (interval <= 0) return;
    const clock = this.options.clock ?? systemClock;
    const now = clock.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + interval;
    if (start > now) await clock.sleep(start - now);
  }

  async #acquire(): Promise<void> {
    if (this.#active < this.options.maxConcurrent) {
      this.#active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#active -= 1;
  }
}

async function readText(response: Response, service: string, timeoutMs: number): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new UpstreamError(service, response.status, `the answer was cut off or took longer than ${timeoutMs} ms`, { cause: error });
  }
}
