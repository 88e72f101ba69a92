import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/client';
import ipaddr from 'ipaddr.js';

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
 * followed (so credentials never go to another origin), bounded in size and time.
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
    const headers = new Headers(init?.headers);
    let body: string | undefined;
    if (init?.body instanceof URLSearchParams) {
      body = init.body.toString();
      if (!headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded;charset=UTF-8');
    } else if (typeof init?.body === 'string') {
      body = init.body;
    } else if (init?.body != null) {
      throw new TypeError('guardedFetch sends string or form bodies only');
    }
    const signal = init?.signal ?? undefined;
    return new Promise<Response>((resolve, reject) => {
      const request = (plainHttp ? http : https).request(
        url,
        { method: init?.method ?? 'GET', headers: Object.fromEntries(headers), lookup, timeout: timeoutMs, ...(signal ? { signal } : {}) },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              response.destroy();
              reject(new BlockedRequestError(`the answer from ${url.origin} is too large`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => {
            const status = response.statusCode ?? 502;
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              if (value === undefined) continue;
              for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, one);
            }
            const noBody = status === 204 || status === 205 || status === 304;
            resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: response.statusMessage ?? '', headers: responseHeaders }));
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new BlockedRequestError(`${url.origin} did not answer in time`)));
      request.on('error', reject);
      request.end(body);
    });
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
