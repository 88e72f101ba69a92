import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { collections } from '../../../plugins/oauth-as/records.js';
import { cookiesOf, form, hiddenFields, pkce } from './browserless.js';
import { authorizationUrl, exchangeCode, LOOPBACK_REDIRECT, obtainCode, PASSWORD, register, registerClient } from './flows.js';
import { startOAuthHub } from './oauth-hub.js';

t.test('dynamic registrations are capped, per address and in total', async (t) => {
  const { url } = await startOAuthHub(t, { plugin: { maxDynamicClients: 25 }, trustProxy: '127.0.0.1' });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  let accepted = 0;
  let limited: Awaited<ReturnType<typeof register>> | undefined;
  while (!limited && accepted < 100) {
    const answer = await register(url, { redirect_uris: [LOOPBACK_REDIRECT] }, from('203.0.113.1'));
    if (answer.status === 201) accepted++;
    else limited = answer;
  }
  t.equal(accepted, 20, 'one address registers 20 clients an hour');
  t.equal(limited?.status, 429);
  t.ok(Number(limited?.retryAfter) >= 1, 'with Retry-After');

  for (let index = 0; index < 5; index++) t.equal((await register(url, { redirect_uris: [LOOPBACK_REDIRECT] }, from('203.0.113.2'))).status, 201);
  const full = await register(url, { redirect_uris: [LOOPBACK_REDIRECT] }, from('203.0.113.3'));
  t.equal(full.status, 503, 'beyond maxDynamicClients, no more registrations');
  t.equal(full.body.error, 'temporarily_unavailable');
});

t.test('registration metadata is bounded in size', async (t) => {
  const { url } = await startOAuthHub(t);
  const many = Array.from({ length: 50 }, (_, index) => `https://app.example/cb/${index}`);
  t.equal((await register(url, { redirect_uris: many })).status, 400, '50 redirect URIs');
  t.equal((await register(url, { redirect_uris: [LOOPBACK_REDIRECT], client_name: 'x'.repeat(10_000) })).status, 400, 'a 10,000-character name');
  t.equal((await register(url, { redirect_uris: [`https://app.example/${'x'.repeat(5000)}`] })).status, 400, 'a 5,000-character URI');
  const huge = await fetch(`${url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [LOOPBACK_REDIRECT], padding: 'x'.repeat(200_000) }),
  });
  t.equal(huge.status, 413, 'a 200 KB body');
});

t.test('a registration never used expires; one that obtained tokens stays', async (t) => {
  const { url, hub } = await startOAuthHub(t);
  const unused = await registerClient(url);
  const used = await registerClient(url);
  const { code, verifier } = await obtainCode(url, used);
  t.equal((await exchangeCode(url, used, code, verifier)).status, 200);

  const { clients } = collections(hub.store);
  const waiting = await clients.findOne({ _id: unused.client_id });
  t.ok(waiting?.expiresAt, 'an unused registration carries an expiry');
  // Against the record's own issue time (whole seconds, taken after the expiry), not the clock now.
  t.ok((waiting?.expiresAt?.getTime() ?? Infinity) < ((waiting?.issuedAt ?? 0) + 1) * 1000 + 24 * 3600_000, 'of at most a day by default');
  t.notOk((await clients.findOne({ _id: used.client_id }))?.expiresAt, 'a used one does not');
  // Its day has passed: moved back in time rather than waited for.
  await clients.updateMany({ _id: unused.client_id }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  const page = await fetch(authorizationUrl(url, unused.client_id, LOOPBACK_REDIRECT), { redirect: 'manual' });
  t.equal(page.status, 400, 'the expired registration is unknown');
  t.equal((await fetch(authorizationUrl(url, used.client_id, LOOPBACK_REDIRECT), { redirect: 'manual' })).status, 200);
});

/**
 * Bytes of every file under `folder`. The store's lock folder comes and goes while the hub
 * runs: an entry gone between listing and reading holds nothing.
 */
async function folderBytes(folder: string): Promise<number> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let total = 0;
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) total += await folderBytes(path);
    else if (entry.isFile())
      total += await stat(path).then(
        (found) => found.size,
        (error: unknown) => ((error as NodeJS.ErrnoException).code === 'ENOENT' ? 0 : Promise.reject(error)),
      );
  }
  return total;
}

t.test('unauthenticated authorization requests do not grow DATA_PATH', async (t) => {
  const { url, dataPath } = await startOAuthHub(t, { trustProxy: '127.0.0.1' });
  const client = await registerClient(url);
  // As much client-supplied text as a request may carry.
  const query = { state: 's'.repeat(2000), scope: 'x '.repeat(500).trim() };
  const open = async () => {
    const page = await fetch(authorizationUrl(url, client.client_id, LOOPBACK_REDIRECT, pkce().challenge, query), { headers: { 'x-forwarded-for': '203.0.113.10' } });
    t.equal(page.status, 200);
    return { fields: hiddenFields(await page.text()), cookie: cookiesOf(page) };
  };
  const first = await open();
  const before = await folderBytes(dataPath);
  let opened = 0;
  while (opened < 2000) {
    await Promise.all(Array.from({ length: 25 }, () => open()));
    opened += 25;
  }
  const grown = (await folderBytes(dataPath)) - before;
  t.ok(grown < 1_000_000, `2,000 authorization requests from one address grew DATA_PATH by ${grown} bytes`);

  const request = form({ ...first.fields, step: 'approve', password: PASSWORD });
  const approved = await fetch(`${url}/authorize`, { ...request, headers: { ...request.headers, cookie: first.cookie }, redirect: 'manual' });
  t.equal(approved.status, 302, 'the first request is still served: none gave way');
  t.match(approved.headers.get('location'), /[?&]code=/);
  const again = await fetch(`${url}/authorize`, { ...request, headers: { ...request.headers, cookie: first.cookie }, redirect: 'manual' });
  t.equal(again.status, 403, 'one request, one decision');
});
