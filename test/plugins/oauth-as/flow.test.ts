import t from 'tap';
import { runAdminCommand } from '../../helpers/admin.js';
import { approve, form, pkce } from './browserless.js';
import { startOAuthHub } from './oauth-hub.js';

const REDIRECT = 'http://127.0.0.1:5555/callback';

async function register(url: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Test client', ...extra }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

function authorizationUrl(url: string, clientId: string, challenge: string, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    resource: `${url}/hub`,
    scope: 'mcp',
    ...extra,
  });
  return `${url}/authorize?${query}`;
}

async function login(url: string, client: Record<string, string>, resource = `${url}/hub`) {
  const { verifier, challenge } = pkce();
  const redirect = await approve(authorizationUrl(url, client.client_id ?? '', challenge, { resource }), 'correct horse');
  const code = redirect.searchParams.get('code') ?? '';
  const response = await fetch(
    `${url}/token`,
    form({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: client.client_id ?? '',
      client_secret: client.client_secret ?? '',
      resource,
    }),
  );
  return { redirect, status: response.status, tokens: (await response.json()) as Record<string, string> };
}

async function probe(url: string, token: string | undefined, resource: string) {
  const response = await fetch(`${url}/probe/x`, { headers: { 'x-resource': resource, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: (await response.json()) as Record<string, unknown> };
}

t.test('discovery documents', async (t) => {
  const { url } = await startOAuthHub(t);
  const metadata = await fetch(`${url}/.well-known/oauth-authorization-server`);
  const text = await metadata.text();
  const parsed = JSON.parse(text) as Record<string, unknown>;
  t.equal(parsed.issuer, url);
  t.same(parsed.code_challenge_methods_supported, ['S256']);
  t.equal(parsed.registration_endpoint, `${url}/register`);
  t.equal(parsed.client_id_metadata_document_supported, true);
  t.equal(await (await fetch(`${url}/.well-known/openid-configuration`)).text(), text, 'the OpenID alias is byte-identical');
  t.equal(await (await fetch(`${url}/.well-known/oauth-authorization-server/hub`)).text(), text, 'path-inserted form');
  const resource = (await (await fetch(`${url}/.well-known/oauth-protected-resource/hub`)).json()) as Record<string, unknown>;
  t.equal(resource.resource, `${url}/hub`);
  t.same(resource.authorization_servers, [url]);
  t.equal((await fetch(`${url}/.well-known/oauth-protected-resource/nope/mcp`)).status, 404, 'no metadata for a server that is not configured');
  t.same(await (await fetch(`${url}/jwks`)).json(), { keys: [] });
});

t.test('dynamic registration can be switched off', async (t) => {
  const { url } = await startOAuthHub(t, { plugin: { dynamicRegistration: false } });
  t.equal((await fetch(`${url}/register`, { method: 'POST' })).status, 404);
  const metadata = (await (await fetch(`${url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  t.equal(metadata.registration_endpoint, undefined);
});

t.test('registration, login, consent, tokens, refresh, revocation', async (t) => {
  const { url, hub } = await startOAuthHub(t);
  const { status, body: client } = await register(url);
  t.equal(status, 201);
  t.ok(client.client_secret);

  t.test('RFC 7592 management with the registration access token', async (t) => {
    const managed = `${url}/register/${encodeURIComponent(client.client_id ?? '')}`;
    t.equal((await fetch(managed)).status, 401);
    const read = await fetch(managed, { headers: { authorization: `Bearer ${client.registration_access_token}` } });
    t.match(await read.json(), { client_id: client.client_id, client_name: 'Test client' });
    const updated = await fetch(managed, {
      method: 'PUT',
      headers: { authorization: `Bearer ${client.registration_access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: client.client_id, redirect_uris: [REDIRECT], client_name: 'Renamed' }),
    });
    t.match(await updated.json(), { client_name: 'Renamed' });
  });

  t.test('PKCE plain is rejected, by redirect with the standard error', async (t) => {
    const response = await fetch(authorizationUrl(url, client.client_id ?? '', 'x'.repeat(43), { code_challenge_method: 'plain' }), { redirect: 'manual' });
    t.equal(response.status, 302);
    const location = new URL(response.headers.get('location') ?? '');
    t.equal(location.searchParams.get('error'), 'invalid_request');
    t.equal(location.searchParams.get('state'), 'st');
  });

  t.test('an unregistered redirect is shown, not followed', async (t) => {
    const response = await fetch(authorizationUrl(url, client.client_id ?? '', 'x'.repeat(43), { redirect_uri: 'https://evil.example/cb' }), { redirect: 'manual' });
    t.equal(response.status, 400);
    t.match(response.headers.get('content-security-policy'), /frame-ancestors 'none'/);
  });

  const first = await login(url, client);
  t.equal(first.status, 200);
  t.equal(first.redirect.searchParams.get('iss'), url);
  t.equal(first.tokens.token_type, 'Bearer');
  const second = await login(url, client);

  t.test('a token is accepted on its resource only', async (t) => {
    const accepted = await probe(url, first.tokens.access_token, `${url}/hub`);
    t.equal(accepted.status, 200);
    t.match(accepted.body, { clientId: client.client_id, scopes: ['mcp'], resource: `${url}/hub`, subject: 'hub' });
    const elsewhere = await probe(url, first.tokens.access_token, `${url}/maps/mcp`);
    t.equal(elsewhere.status, 401, 'a token for /hub is refused on /<name>/mcp');
    t.match(elsewhere.challenge, `resource_metadata="${url}/.well-known/oauth-protected-resource/maps/mcp"`);
    const none = await probe(url, undefined, `${url}/hub`);
    t.equal(none.status, 401);
    t.equal(none.challenge, `Bearer resource_metadata="${url}/.well-known/oauth-protected-resource/hub"`);
  });

  t.test('client_secret_basic is refused', async (t) => {
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const response = await fetch(`${url}/token`, {
      ...form({ grant_type: 'refresh_token', refresh_token: first.tokens.refresh_token ?? '' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
    t.equal(response.status, 401);
    t.match(await response.json(), { error: 'invalid_client' });
  });

  t.test('unsupported grants get the standard error', async (t) => {
    for (const grant of ['client_credentials', 'urn:ietf:params:oauth:grant-type:device_code']) {
      const response = await fetch(`${url}/token`, form({ grant_type: grant, client_id: client.client_id ?? '', client_secret: client.client_secret ?? '' }));
      t.match(await response.json(), { error: 'unsupported_grant_type' });
    }
  });

  t.test('refresh rotates; replaying a retired token revokes the family', async (t) => {
    const refresh = (token: string) => fetch(`${url}/token`, form({ grant_type: 'refresh_token', refresh_token: token, client_id: client.client_id ?? '', client_secret: client.client_secret ?? '' }));
    const rotated = (await (await refresh(first.tokens.refresh_token ?? '')).json()) as Record<string, string>;
    t.ok(rotated.refresh_token);
    t.not(rotated.refresh_token, first.tokens.refresh_token);
    t.equal((await probe(url, rotated.access_token, `${url}/hub`)).status, 200);
    const onward = (await (await refresh(rotated.refresh_token ?? '')).json()) as Record<string, string>;
    const replay = await refresh(first.tokens.refresh_token ?? '');
    t.equal(replay.status, 400, 'once its successor was used, the first token is retired for good');
    t.match(await replay.json(), { error: 'invalid_grant' });
    t.equal((await probe(url, onward.access_token, `${url}/hub`)).status, 401, "the family's access tokens are withdrawn");
    t.equal((await refresh(onward.refresh_token ?? '')).status, 400, 'so is its current refresh token');
    t.equal((await probe(url, second.tokens.access_token, `${url}/hub`)).status, 200, 'another login of the client is unaffected');
  });

  t.test('/revoke withdraws only the token presented', async (t) => {
    const third = await login(url, client);
    const response = await fetch(`${url}/revoke`, form({ token: third.tokens.access_token ?? '', client_id: client.client_id ?? '', client_secret: client.client_secret ?? '' }));
    t.equal(response.status, 200);
    t.equal((await probe(url, third.tokens.access_token, `${url}/hub`)).status, 401);
    t.equal((await probe(url, second.tokens.access_token, `${url}/hub`)).status, 200);
  });

  t.test('hub-admin clients revoke withdraws every token of the client at once', async (t) => {
    const command = hub.adminCommands.get('clients');
    t.equal((await runAdminCommand(command, ['revoke', client.client_id ?? ''])).code, 0);
    t.equal((await probe(url, second.tokens.access_token, `${url}/hub`)).status, 401);
  });
});

t.test('API tokens', async (t) => {
  const { url, hub } = await startOAuthHub(t);
  const { ApiTokens } = await import('../../../plugins/oauth-as/api-tokens.js');
  const { collections } = await import('../../../plugins/oauth-as/records.js');
  const apiTokens = new ApiTokens(collections(hub.store), url);
  const minted = await apiTokens.mint('ci', 3600);
  const accepted = await probe(url, minted.token, `${url}/hub`);
  t.equal(accepted.status, 200);
  t.equal(accepted.body.clientId, `api-token:${minted.id}`);
  t.equal((await runAdminCommand(hub.adminCommands.get('tokens'), ['revoke', minted.id])).code, 0);
  t.equal((await probe(url, minted.token, `${url}/hub`)).status, 401, 'a token accepted before is refused once revoked');

  // The policy on a clock of the test's own: a token checked once (and remembered) is
  // refused from its expiry on, with jose's reason.
  let clock = Date.now();
  const clocked = new ApiTokens(collections(hub.store), url, () => clock);
  const shortLived = await clocked.mint('brief', 60);
  t.match(await clocked.verify(shortLived.token), { ok: true, id: shortLived.id }, 'a token is accepted while it lasts');
  clock += 61_000;
  const lapsed = await clocked.verify(shortLived.token);
  t.equal(lapsed.ok, false, 'a token accepted before is refused once it expired');
  t.match(lapsed, { reason: /the API token expired at/ }, 'with the reason');
  // Over HTTP: an expired token is refused with the reason in the challenge.
  const expired = await probe(url, (await apiTokens.mint('brief', -60)).token, `${url}/hub`);
  t.equal(expired.status, 401, 'the hub refuses an expired token');
  t.match(expired.challenge, /the API token expired at/, 'with the reason');
});
