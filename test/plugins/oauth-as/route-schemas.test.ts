import t from 'tap';
import { exchangeCode, obtainCode, register, registerClient } from './flows.js';
import { startOAuthHub } from './oauth-hub.js';

async function post(url: string, body: string, type = 'application/x-www-form-urlencoded', headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
  return { status: response.status, body: (await response.json()) as { error?: string; error_description?: string } };
}

// Routes declare their schemas and Fastify refuses what they do not admit before a handler
// runs, with the hub's validator whatever the embedding app's Ajv does.
for (const [name, ajv] of [
  ['the default app', undefined],
  ['an app whose Ajv coerces and removes', { customOptions: { coerceTypes: 'array' as const, removeAdditional: 'all' as const } }],
] as const) {
  t.test(`token requests the schema refuses are invalid_request (${name})`, async (t) => {
    const { url } = await startOAuthHub(t, ajv === undefined ? {} : { ajv });
    const client = await registerClient(url);
    const { code, verifier } = await obtainCode(url, client);
    const credentials = `client_id=${encodeURIComponent(client.client_id)}&client_secret=${encodeURIComponent(client.client_secret)}`;

    const twice = await post(`${url}/token`, `grant_type=authorization_code&grant_type=refresh_token&code=${code}&code_verifier=${verifier}&${credentials}`);
    t.equal(twice.status, 400, 'a parameter sent twice (RFC 6749 3.1)');
    t.equal(twice.body.error, 'invalid_request');
    t.match(twice.body.error_description, /grant_type/, 'the description names the parameter');

    const longVerifier = await exchangeCode(url, client, code, 'v'.repeat(129));
    t.equal(longVerifier.body.error, 'invalid_request', 'a PKCE verifier over 128 characters (RFC 7636)');
    const missing = await post(`${url}/token`, credentials);
    t.equal(missing.body.error, 'invalid_request', 'no grant_type');

    const real = await exchangeCode(url, client, code, verifier);
    t.equal(real.status, 200, 'none of the refusals used the code up');
  });
}

t.test('registration metadata the schema refuses is invalid_client_metadata; management authenticates before reading the body', async (t) => {
  const { url } = await startOAuthHub(t);
  const notAList = await register(url, { redirect_uris: 'http://127.0.0.1:5555/cb' });
  t.equal(notAList.status, 400);
  t.equal(notAList.body.error, 'invalid_client_metadata');
  const client = await registerClient(url);

  const management = `${url}/register/${encodeURIComponent(client.client_id)}`;
  const anonymous = await fetch(management, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"redirect_uris": 7}' });
  t.equal(anonymous.status, 401, 'no registration access token: 401 whatever the body');
  t.equal(((await anonymous.json()) as { error: string }).error, 'invalid_token');
  const authorized = await fetch(management, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${client.registration_access_token}` },
    body: '{"redirect_uris": 7}',
  });
  t.equal(authorized.status, 400, 'with it, the body is validated');
  t.equal(((await authorized.json()) as { error: string }).error, 'invalid_client_metadata');
});
