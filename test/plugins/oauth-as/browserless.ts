import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function form(values: Record<string, string>): { method: 'POST'; headers: Record<string, string>; body: string } {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(values).toString() };
}

/** The hidden fields of an approval page's form. */
export function hiddenFields(html: string): { request_id: string; csrf: string } {
  return {
    request_id: /name="request_id" value="([^"]+)"/.exec(html)?.[1] ?? '',
    csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
  };
}

/** The cookies a response sets, as a Cookie header. */
export function cookiesOf(response: Response): string {
  return response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
}

/**
 * One login attempt as a person at `headers` (an X-Forwarded-For, say) would make it: GET
 * the authorization URL, post the password; returns the answer to the post.
 */
export async function attemptLogin(authorizationUrl: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  const page = await fetch(authorizationUrl, { headers, redirect: 'manual' });
  if (page.status !== 200) throw new Error(`authorization page answered ${page.status}`);
  const request = form({ ...hiddenFields(await page.text()), step: 'login', password });
  return fetch(`${new URL(authorizationUrl).origin}/authorize`, { ...request, headers: { ...request.headers, ...headers, cookie: cookiesOf(page) }, redirect: 'manual' });
}

/**
 * Walks the approval pages the way a browser without JavaScript would: GET the
 * authorization URL, post the login form, post the consent form; returns the redirect.
 */
export async function approve(authorizationUrl: string, password: string): Promise<URL> {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      cookies.set(name, value);
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  if (page.status !== 200) throw new Error(`authorization page answered ${page.status}: ${page.headers.get('location') ?? await page.text()}`);
  remember(page);
  const origin = new URL(authorizationUrl).origin;
  const login = await fetch(`${origin}/authorize`, { ...withCookies(form({ ...hiddenFields(await page.text()), step: 'login', password }), cookieHeader()), redirect: 'manual' });
  remember(login);
  const consent = await login.text();
  if (login.status !== 200) throw new Error(`login answered ${login.status}`);
  const decision = await fetch(`${origin}/authorize`, { ...withCookies(form({ ...hiddenFields(consent), step: 'approve' }), cookieHeader()), redirect: 'manual' });
  const location = decision.headers.get('location');
  if (decision.status !== 302 || !location) throw new Error(`consent answered ${decision.status}`);
  return new URL(location);
}

function withCookies<T extends { headers: Record<string, string> }>(init: T, cookie: string): T {
  return { ...init, headers: { ...init.headers, cookie } };
}
