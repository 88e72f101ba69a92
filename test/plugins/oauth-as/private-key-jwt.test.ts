import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import t from 'tap';
import { listenOnLoopback } from '../../helpers/net.js';
import { approve, form, pkce } from './browserless.js';
import { startOAuthHub } from './oauth-hub.js';

const JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const REDIRECT = 'http://127.0.0.1:5555/cb';
const ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;

/** One loopback http server publishing a metadata document per algorithm (the dev switch allows loopback over http). */
async function publishDocuments(t: { teardown(fn: () => unknown): void }) {
  const keys = new Map<string, CryptoKey>();
  const jwks: Record<string, unknown>[] = [];
  for (const alg of ALGORITHMS) {
    const pair = await generateKeyPair(alg, { extractable: true });
    keys.set(alg, pair.privateKey);
    jwks.push({ ...(await exportJWK(pair.publicKey)), kid: `key-${alg}`, alg, use: 'sig' });
  }
  const stranger = (await generateKeyPair('ES256')).privateKey;
  let base = '';
  const server = createServer((request, response) => {
    const document = { client_id: `${base}${request.url}`, client_name: 'Signed client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: jwks } };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  base = `http://127.0.0.1:${await listenOnLoopback(t, server)}`;
  return { clientId: `${base}/client.json`, keys, stranger };
}

function assertion(key: CryptoKey, alg: string, kid: string, clientId: string, audience: string, jti = randomUUID()) {
  return new SignJWT({}).setProtectedHeader({ alg, kid }).setIssuer(clientId).setSubject(clientId).setAudience(audience).setJti(jti).setIssuedAt().setExpirationTime('2m').sign(key);
}

t.test('private_key_jwt for metadata-document clients', async (t) => {
  const { url } = await startOAuthHub(t, { plugin: { allowLoopbackMetadataDocuments: true } });
  const { clientId, keys, stranger } = await publishDocuments(t);
  const tokenEndpoint = `${url}/token`;
  const authenticated = (clientAssertion: string, extra: Record<string, string>) =>
    fetch(tokenEndpoint, form({ client_id: clientId, client_assertion_type: JWT_BEARER, client_assertion: clientAssertion, ...extra }));

  for (const alg of ALGORITHMS) {
    t.test(alg, async (t) => {
      const key = keys.get(alg) as CryptoKey;
      const { verifier, challenge } = pkce();
      const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' });
      const redirect = await approve(`${url}/authorize?${query}`, 'correct horse');
      const grant = { grant_type: 'authorization_code', code: redirect.searchParams.get('code') ?? '', code_verifier: verifier, redirect_uri: REDIRECT };

      const wrongAudience = await authenticated(await assertion(key, alg, `key-${alg}`, clientId, 'https://other-hub.example/token'), grant);
      t.equal(wrongAudience.status, 401, 'an assertion for another audience is refused');
      t.match(await wrongAudience.json(), { error: 'invalid_client' });
      const unknownKey = await authenticated(await assertion(stranger, 'ES256', `key-${alg}`, clientId, tokenEndpoint), grant);
      t.equal(unknownKey.status, 401, 'an assertion signed by a key the document does not publish is refused');

      const valid = await assertion(key, alg, `key-${alg}`, clientId, tokenEndpoint);
      const exchanged = await authenticated(valid, grant);
      t.equal(exchanged.status, 200, 'a valid assertion is accepted');
      const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
      const probe = await fetch(`${url}/probe/x`, { headers: { 'x-resource': `${url}/hub`, authorization: `Bearer ${tokens.access_token}` } });
      t.match(await probe.json(), { clientId }, "and the token is the client's");

      const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token };
      const replayed = await authenticated(valid, refresh);
      t.equal(replayed.status, 401, 'the same assertion (same jti) is refused the second time');
      t.match(await replayed.json(), { error: 'invalid_client', error_description: /replayed/ });
      const fresh = await authenticated(await assertion(key, alg, `key-${alg}`, clientId, url), refresh);
      t.equal(fresh.status, 200, 'a new assertion, with the issuer as audience, is accepted');
    });
  }

  t.test('clients the hub issued cannot use private_key_jwt', async (t) => {
    const registered = await fetch(`${url}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }),
    });
    t.equal(registered.status, 400, 'not at registration');
    const client = (await (await fetch(`${url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) })).json()) as {
      client_id: string;
    };
    const key = keys.get('ES256') as CryptoKey;
    const response = await fetch(
      `${url}/revoke`,
      form({ token: 'x', client_id: client.client_id, client_assertion_type: JWT_BEARER, client_assertion: await assertion(key, 'ES256', 'key-ES256', client.client_id, tokenEndpoint) }),
    );
    t.equal(response.status, 401, 'nor at the endpoints');
  });
});
