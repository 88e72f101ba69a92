import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * A fetch that puts the entry's static `headers` (for example `Authorization: Bearer
 * ...`) on every request of a remote child, the SSE stream's GET included. Headers the
 * transport sets itself win over a static header of the same name. `next` is the fetch
 * underneath.
 */
export function fetchWithHeaders(headers: Record<string, string> | undefined, next: FetchLike): FetchLike {
  if (headers === undefined || Object.keys(headers).length === 0) return next;
  return (url, init) => {
    const merged = new Headers(headers);
    new Headers(init?.headers).forEach((value, key) => merged.set(key, value));
    return next(url, { ...init, headers: merged });
  };
}
