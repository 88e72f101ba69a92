import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import { stat, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import t from 'tap';
import { clientAuthentication } from '../../../plugins/upstream-oauth/client-auth.js';
import { UpstreamKey } from '../../../plugins/upstream-oauth/key.js';
import { guardedFetch } from '../../../core/net/guarded-fetch.js';
import { newDataPath } from './upstream-hub.js';

t.test('the authorization-side fetch refuses what the upstream should not make the hub reach', async (t) => {
  const hits: string[] = [];
  const other = createServer((request, response) => {
    hits.push(request.headers.authorization ?? '');
    response.end('other');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const otherUrl = `http://localhost:${(other.address() as AddressInfo).port}/steal`;
  const server = createServer((request, response) => {
    if (request.url === '/redirect') response.writeHead(307, { location: otherUrl }).end();
    else if (request.url === '/big') response.end(Buffer.alloc(2 * 1024 * 1024));
    else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.close();
    other.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const strict = guardedFetch({ allowLoopback: false, maxBytes: 1024 * 1024, timeoutMs: 10_000 });
  const blocked = (because: RegExp) => ({ code: 'HUB_ERR_FETCH_BLOCKED', message: because });
  await t.rejects(strict(`${base}/`), blocked(/only https/), 'plain http is refused without the development switch');
  await t.rejects(strict(`https://127.0.0.1:${(server.address() as AddressInfo).port}/`), blocked(/non-public address \(127\.0\.0\.1\)/), 'a loopback literal is refused');
  await t.rejects(strict('https://10.1.2.3/'), blocked(/non-public address/), 'a private address is refused');
  await t.rejects(strict('https://localhost:1/'), blocked(/non-public address/), 'a name resolving to loopback is refused at connect time');
  await t.rejects(strict('https://user:pw@example.com/'), blocked(/credentials/));

  const development = guardedFetch({ allowLoopback: true, maxBytes: 1024 * 1024, timeoutMs: 10_000 });
  t.same(await (await development(`${base}/`)).json(), { ok: true }, 'the switch allows a loopback authorization server');
  await t.rejects(development('http://192.168.1.1/'), blocked(/non-public address/), 'the switch does not open private networks');
  const redirected = await development(`${base}/redirect`, { method: 'POST', headers: { authorization: 'Basic c2VjcmV0' }, body: new URLSearchParams({ a: 'b' }) });
  t.equal(redirected.status, 307, 'a redirect is handed back, not followed');
  t.same(hits, [], 'the other origin never saw the credentials');
  await t.rejects(development(`${base}/big`), { code: 'HUB_ERR_FETCH_LIMIT' });
});

t.test('the outbound key: Ed25519, owner-only, created once, verifiable assertions', async (t) => {
  const dataPath = await newDataPath();
  const file = join(dataPath, 'upstream-key.pem');
  const key = new UpstreamKey(file);
  const { keys } = await key.jwks();
  t.equal((await stat(file)).mode & 0o777, 0o600, 'created with owner-only permissions');
  t.match(keys[0], { kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
  t.notOk(keys[0] && 'd' in keys[0], 'only the public half is published');
  t.same((await new UpstreamKey(file).jwks()).keys, keys, 'a second load reuses the same key');

  const assertion = await key.assertion('client-1', 'https://as.example');
  t.equal(decodeProtectedHeader(assertion).kid, keys[0]?.kid);
  const { payload } = await jwtVerify(assertion, await importJWK(keys[0] ?? {}, 'EdDSA'), { issuer: 'client-1', subject: 'client-1', audience: 'https://as.example' });
  t.ok(payload.jti && payload.exp && payload.iat, 'jti, iat and exp are set');
  t.not(decodeJwt(await key.assertion('client-1', 'https://as.example')).jti, payload.jti, 'each assertion is fresh');

  const rsa = join(dataPath, 'rsa.pem');
  await writeFile(rsa, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
  await t.rejects(new UpstreamKey(rsa).jwks(), { code: 'HUB_ERR_UPSTREAM_OAUTH_KEY_INVALID' }, 'a key of another kind is refused');
});

t.test('client authentication puts the credentials where each method says', async (t) => {
  const key = new UpstreamKey(join(await newDataPath(), 'upstream-key.pem'));
  const client = async () => ({ client_id: 'id:with space', client_secret: 's&cret' });
  const apply = async (method: Parameters<typeof clientAuthentication>[0]) => {
    const headers = new Headers();
    const params = new URLSearchParams({ grant_type: 'refresh_token', client_id: 'id:with space' });
    await clientAuthentication(method, client, key)(headers, params, 'https://as.example/token', undefined);
    return { headers, params };
  };
  const basic = await apply('client_secret_basic');
  t.equal(basic.headers.get('authorization'), `Basic ${Buffer.from('id%3Awith%20space:s%26cret').toString('base64')}`, 'basic form-encodes each part');
  t.notOk(basic.params.has('client_secret'));
  const post = await apply('client_secret_post');
  t.equal(post.params.get('client_secret'), 's&cret');
  t.notOk(post.headers.has('authorization'));
  const none = await apply('none');
  t.equal(none.params.get('client_id'), 'id:with space');
  t.notOk(none.params.has('client_secret') || none.headers.has('authorization'), 'a public client sends no secret');
  const jwt = await apply('private_key_jwt');
  t.equal(jwt.params.get('client_assertion_type'), 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
  t.match(decodeJwt(jwt.params.get('client_assertion') ?? ''), { iss: 'id:with space', aud: 'https://as.example/token' });
  t.notOk(jwt.params.has('client_secret'));

  const unregistered = clientAuthentication('client_secret_post', async () => undefined, key);
  await t.rejects(async () => unregistered(new Headers(), new URLSearchParams(), 'https://as.example/token', undefined), { code: 'HUB_ERR_UPSTREAM_OAUTH_NO_CLIENT' });
});
