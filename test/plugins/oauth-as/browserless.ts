import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function form(values: Record<string, string>): { method: 'POST'; headers: Record<string, string>; body: string } {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(values).toString() };
}

/** The hidden fields of an approval page's form: the sealed request and the CSRF token. */
export function hiddenFields(html: string): { request: string; _csrf: string } {
  return {
    request: /name="request" value="([^"]+)"/.exec(html)?.[1] ?? '',
    _csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
  };
}

/** The cookies a response sets, as a Cookie header. */
export function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/**
 * One approval as a person at `headers` (an X-Forwarded-For, say) would make it: GET the
 * authorization URL, post the password with Allow; returns the answer to the post (a
 * redirect with the code when the password was right).
 */
export async function attemptLogin(authorizationUrl: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  const page = await fetch(authorizationUrl, { headers, redirect: 'manual' });
  if (page.status !== 200) throw new Error(`authorization page answered ${page.status}`);
  const request = form({ ...hiddenFields(await page.text()), step: 'approve', password });
  return fetch(`${new URL(authorizationUrl).origin}/authorize`, { ...request, headers: { ...request.headers, ...headers, cookie: cookiesOf(page) }, redirect: 'manual' });
}

/**
 * Walks the approval page the way a browser without JavaScript would: GET the
 * authorization URL, post the password with Allow; returns the redirect.
 */
export async function approve(authorizationUrl: string, password: string): Promise<URL> {
  const decision = await attemptLogin(authorizationUrl, password);
  const location = decision.headers.get('location');
  if (decision.status !== 302 || !location) throw new Error(`the approval answered ${decision.status}`);
  return new URL(location);
}
