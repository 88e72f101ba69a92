import type { IncomingHttpHeaders } from 'node:http';

/**
 * Why a form post did not come from one of the hub's own pages, or undefined when nothing
 * says it did not. Browsers send `Sec-Fetch-Site` (fetch metadata) and `Origin` with every
 * form post; a post from another site, a sibling subdomain included, is refused whatever
 * cookies it carries. Clients that send neither (scripts, curl) are left to the CSRF token.
 */
export function foreignFormReason(headers: IncomingHttpHeaders, ownOrigins: readonly string[]): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `the form was sent from another site (Sec-Fetch-Site: ${site})`;
  const origin = headers.origin;
  if (origin !== undefined && !ownOrigins.includes(origin)) return `the form was sent from ${origin === 'null' ? 'an opaque origin' : origin}, not from this hub`;
  return undefined;
}
