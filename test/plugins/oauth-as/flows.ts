import { approve, form, pkce } from './browserless.js';

export const PASSWORD = 'correct horse';
export const LOOPBACK_REDIRECT = 'http://127.0.0.1:5555/cb';

export interface RegisteredClient {
  client_id: string;
  client_secret: string;
  registration_access_token: string;
  redirect_uri: string;
}

/** RFC 7591 registration; the answer's status and body. */
export async function register(url: string, metadata: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/register`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(metadata) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, string> };
}

/** A confidential client registered with one redirect URI. */
export async function registerClient(url: string, redirectUri = LOOPBACK_REDIRECT): Promise<RegisteredClient> {
  const { status, body } = await register(url, { redirect_uris: [redirectUri], client_name: 'Test client' });
  if (status !== 201) throw new Error(`registration answered ${status}: ${JSON.stringify(body)}`);
  return { client_id: body.client_id ?? '', client_secret: body.client_secret ?? '', registration_access_token: body.registration_access_token ?? '', redirect_uri: redirectUri };
}

export function authorizationUrl(url: string, clientId: string, redirectUri: string, challenge = pkce().challenge, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    resource: `${url}/hub`,
    ...extra,
  });
  return `${url}/authorize?${query}`;
}

/** Logs in and approves: an authorization code for the client, with its PKCE verifier. */
export async function obtainCode(url: string, client: RegisteredClient): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const redirect = await approve(authorizationUrl(url, client.client_id, client.redirect_uri, challenge), PASSWORD);
  return { code: redirect.searchParams.get('code') ?? '', verifier };
}

export interface TokenAnswer {
  status: number;
  body: { access_token?: string; refresh_token?: string; error?: string; error_description?: string; expires_in?: number };
}

async function tokenRequest(url: string, values: Record<string, string>): Promise<TokenAnswer> {
  const response = await fetch(`${url}/token`, form(values));
  return { status: response.status, body: (await response.json()) as TokenAnswer['body'] };
}

export function exchangeCode(url: string, client: RegisteredClient, code: string, verifier: string): Promise<TokenAnswer> {
  return tokenRequest(url, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: client.redirect_uri, client_id: client.client_id, client_secret: client.client_secret });
}

export function refresh(url: string, client: RegisteredClient, refreshToken: string | undefined): Promise<TokenAnswer> {
  return tokenRequest(url, { grant_type: 'refresh_token', refresh_token: refreshToken ?? '', client_id: client.client_id, client_secret: client.client_secret });
}

/** The status the hub's authenticator gives `token` for /hub (through the test hub's `/probe`). */
export async function probe(url: string, token: string | undefined): Promise<number> {
  const response = await fetch(`${url}/probe/x`, { headers: { 'x-resource': `${url}/hub`, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  await response.body?.cancel();
  return response.status;
}
