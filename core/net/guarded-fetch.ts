import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/client';
import ipaddr from 'ipaddr.js';
import { HUB_ERROR_CODES, HubError } from '../errors.js';

/** An answer over the size limit, or one not complete within the time limit. */
export class FetchLimitError extends HubError {
  override readonly name = 'FetchLimitError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(HUB_ERROR_CODES.FETCH_LIMIT, message, options);
  }
}

/** A URL, or the address it resolves to, that the guarded fetch does not request. */
export class BlockedRequestError extends HubError {
  override readonly name = 'BlockedRequestError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(HUB_ERROR_CODES.FETCH_BLOCKED, message, options);
  }
}

export interface GuardedFetchOptions {
  /** The development switch: loopback addresses allowed, and plain http to them. */
  allowLoopback: boolean;
  /** A larger answer is cut off and refused. */
  maxBytes: number;
  /** The whole exchange, from connecting to the answer's last byte, must fit in this. */
  timeoutMs: number;
}

/** ::/96, the IPv4-compatible form (deprecated by RFC 4291), which ipaddr.js calls unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * The fetch for every URL the hub requests on someone else's say-so (a client's metadata
 * document, an upstream's authorization endpoints): https to public addresses only,
 * checked on the address actually connected to (no DNS rebinding), redirects never
 * followed (so credentials never go to another origin), bounded in size and in total time
 * (`FetchLimitError`): a server that sends one byte at a time runs out of time too. Built
 * on undici, one connection per request.
 */
export function guardedFetch({ allowLoopback, maxBytes, timeoutMs }: GuardedFetchOptions): FetchLike {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const plainHttp = url.protocol === 'http:';
    if (url.protocol !== 'https:' && !(plainHttp && allowLoopback)) throw new BlockedRequestError(`refusing to fetch ${url.origin}: only https is allowed`);
    if (url.username || url.password) throw new BlockedRequestError('refusing a URL with credentials');
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(literal)) checkAddress(literal, allowLoopback, plainHttp);
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 4);
        const list = addresses as unknown as { address: string; family: number }[];
        try {
          if (list.length === 0) throw new BlockedRequestError(`${hostname} has no address`);
          for (const { address } of list) checkAddress(address, allowLoopback, plainHttp);
        } catch (refused) {
          return callback(refused as Error, '', 4);
        }
        if (options.all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
        const first = list[0] as { address: string; family: number };
        callback(null, first.address, first.family);
      });
    };

    // undici is imported on the first fetch: most deployments never make one.
    const { Agent, request } = await import('undici');
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new FetchLimitError(`${url.origin} did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    const agent = new Agent({ connect: { lookup }, pipelining: 0 });
    try {
      const headers = new Headers(init?.headers);
      const body = init?.body;
      // The SDK sends JSON text or a form.
      const form = body instanceof URLSearchParams;
      if (form && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
      const answer = await request(url, {
        method: init?.method ?? 'GET',
        headers: Object.fromEntries(headers),
        body: form ? String(body) : (body as string | Uint8Array | null | undefined),
        signal,
        dispatcher: agent,
      });
      const bytes = await collect(answer.body, maxBytes, url);
      const empty = answer.statusCode === 204 || answer.statusCode === 304 || init?.method === 'HEAD';
      return new Response(empty ? null : bytes, { status: answer.statusCode, headers: headerPairs(answer.headers) });
    } catch (error) {
      throw deadline.signal.aborted ? deadline.signal.reason : error;
    } finally {
      clearTimeout(timer);
      void agent.destroy().catch(() => undefined);
    }
  };
}

/** Public unicast only; loopback when allowed. Private, link-local and the rest never. */
export function allowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (parsed.kind() === 'ipv6' && range === 'unicast' && parsed.match(IPV4_COMPATIBLE)) return false;
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

function checkAddress(address: string, allowLoopback: boolean, plainHttp: boolean): void {
  if (!allowedAddress(address, allowLoopback)) throw new BlockedRequestError(`refusing to fetch from a non-public address (${address})`);
  if (plainHttp && ipaddr.process(address).range() !== 'loopback') throw new BlockedRequestError('plain http is allowed for loopback only');
}

function headerPairs(headers: Record<string, string | string[] | undefined>): [string, string][] {
  return Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [value].flat()).map((one): [string, string] => [name, one]));
}

async function collect(body: AsyncIterable<Uint8Array>, maxBytes: number, url: URL): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new FetchLimitError(`the answer from ${url.origin} is too large`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
