import t from 'tap';
import { collections } from '../../../plugins/oauth-as/records.js';
import { cookiesOf, form, hiddenFields } from './browserless.js';
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
  const huge = await fetch(`${url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [LOOPBACK_REDIRECT], padding: 'x'.repeat(200_000) }) });
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

t.test('pending authorizations are capped per address and in total; the oldest give way', async (t) => {
  const { url, hub } = await startOAuthHub(t, { plugin: { maxPendingAuthorizations: 30 }, trustProxy: '127.0.0.1' });
  const client = await registerClient(url);
  const open = async (address: string) => {
    const page = await fetch(authorizationUrl(url, client.client_id, LOOPBACK_REDIRECT), { headers: { 'x-forwarded-for': address } });
    t.equal(page.status, 200);
    return { fields: hiddenFields(await page.text()), cookie: cookiesOf(page) };
  };
  const login = async (opened: Awaited<ReturnType<typeof open>>) => {
    const request = form({ ...opened.fields, step: 'login', password: PASSWORD });
    return (await fetch(`${url}/authorize`, { ...request, headers: { ...request.headers, cookie: opened.cookie } })).status;
  };
  const { pending } = collections(hub.store);

  const first = await open('203.0.113.9');
  for (let index = 0; index < 40; index++) await open('203.0.113.10');
  t.equal((await pending.find({})).length, 11, 'one address holds 10 pending requests at most');
  t.equal(await login(first), 200, 'another address\'s request is untouched');

  const victim = await open('198.51.100.1');
  for (let index = 0; index < 40; index++) await open(`198.51.100.${100 + index}`);
  t.equal((await pending.find({})).length, 30, 'in total, maxPendingAuthorizations');
  t.equal(await login(victim), 403, 'the oldest request gave way');
  t.equal(await login(await open('198.51.100.2')), 200, 'a new request is served');
});
