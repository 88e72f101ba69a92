import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/client';
import ipaddr from 'ipaddr.js';
import { nodeFetch, nodeRequest } from './node-fetch.js';

export class BlockedRequestError extends Error {
  override readonly name = 'BlockedRequestError';
}

export interface GuardedFetchOptions {
  /** The development switch: loopback addresses allowed, and plain http to them. */
  allowLoopback: boolean;
  /** A larger answer is cut off and refused. */
  maxBytes: number;
  timeoutMs: number;
}

/**
 * The fetch for every URL the hub requests on someone else's say-so (a client's metadata
 * document, an upstream's authorization endpoints): https to public addresses only,
 * checked on the address actually connected to (no DNS rebinding), redirects never
 * followed (so credentials never go to another origin), bounded in size and time
 * (`FetchLimitError`).
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
    return nodeFetch(nodeRequest({ lookup, timeoutMs, maxBytes }))(url, init);
  };
}

/** Public unicast only; loopback when allowed. Private, link-local and the rest never. */
export function allowedAddress(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

function checkAddress(address: string, allowLoopback: boolean, plainHttp: boolean): void {
  if (!allowedAddress(address, allowLoopback)) throw new BlockedRequestError(`refusing to fetch from a non-public address (${address})`);
  if (plainHttp && ipaddr.process(address).range() !== 'loopback') throw new BlockedRequestError('plain http is allowed for loopback only');
}
