import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { startHubBin } from '../helpers/hub-bin.js';
import { attemptLogin, cookiesOf, form, hiddenFields, pkce } from '../plugins/oauth-as/browserless.js';
import { authorizationUrl, exchangeCode, PASSWORD, refresh, registerClient, type RegisteredClient } from '../plugins/oauth-as/flows.js';

// Replicas behind a load balancer: three hub processes on one store, every client's
// requests spread over them. What must hold across them: one rotation of a refresh
// token, revocation, the per-client rate limit, the login throttle, the operator's
// session and the approval page, with no sticky sessions.

/** The public URL the load balancer would serve: tokens are for its resources, whichever replica answers. */
const PUBLIC_URL = 'http://hub.replicas.test';
const RESOURCE = `${PUBLIC_URL}/hub`;
const CALLS_PER_MINUTE = 40;

async function replicas(t: Test, store: { dataPath?: string; mongodbUrl?: string }): Promise<string[]> {
  const shared = store.dataPath ?? (await mkdtemp(join(tmpdir(), 'replicas-')));
  const urls: string[] = [];
  for (let index = 0; index < 3; index++) {
    const hub = await startHubBin(t, {
      config: { mcpServers: {}, plugins: { 'oauth-as': true, 'map-tools': false } },
      // On MongoDB each replica has a folder of its own; the embedded store is one DATA_PATH for all.
      dataPath: store.mongodbUrl ? join(shared, `replica-${index}`) : shared,
      env: {
        BASE_URL: PUBLIC_URL,
        HUB_PASSWORD: PASSWORD,
        TRUSTED_PROXIES: '127.0.0.1',
        CLIENT_CALLS_PER_MINUTE: String(CALLS_PER_MINUTE),
        LOG_LEVEL: 'warn',
        MONGODB_URL: store.mongodbUrl,
      },
    });
    urls.push(hub.url);
  }
  return urls;
}

/** An authorization code: the approval page shown by one replica, answered on another (no sticky session). */
async function codeAcross(shown: string, answered: string, client: RegisteredClient): Promise<{ status: number; code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const page = await fetch(authorizationUrl(shown, client.client_id, client.redirect_uri, challenge, { resource: RESOURCE }));
  if (page.status !== 200) throw new Error(`the approval page answered ${page.status}`);
  const request = form({ ...hiddenFields(await page.text()), step: 'approve', password: PASSWORD });
  const decision = await fetch(`${answered}/authorize`, { ...request, headers: { ...request.headers, cookie: cookiesOf(page) }, redirect: 'manual' });
  await decision.body?.cancel();
  return { status: decision.status, code: new URL(decision.headers.get('location') ?? 'http://none/').searchParams.get('code') ?? '', verifier };
}

/** An approved code from `url`'s own approval page. */
function approvedCode(url: string, client: RegisteredClient) {
  return codeAcross(url, url, client);
}

/** A bearer's MCP request to /hub: its HTTP status (429 when the rate limit refuses it). */
async function mcpStatus(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/hub`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status;
}

async function replicaChecks(t: Test, store: { dataPath?: string; mongodbUrl?: string }) {
  const urls = await replicas(t, store);
  const [a, b, c] = urls as [string, string, string];

  await t.test('the approval page shown by one replica is answered by another', async (t) => {
    const client = await registerClient(a);
    const { status, code, verifier } = await codeAcross(a, b, client);
    t.equal(status, 302, 'approved on the second replica');
    t.equal((await exchangeCode(c, client, code, verifier)).status, 200, 'and the code exchanged on the third');
  });

  await t.test('50 concurrent refreshes of one token across the replicas give one new family head', async (t) => {
    const client = await registerClient(a);
    const { code, verifier } = await approvedCode(a, client);
    const first = await exchangeCode(b, client, code, verifier);
    t.equal(first.status, 200);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => refresh(urls[index % 3] as string, client, first.body.refresh_token)));
    t.same([...new Set(answers.map((answer) => answer.status))], [200], 'every presenter gets an answer (the retry of a lost answer is answered alike)');
    const heads = new Set(answers.map((answer) => answer.body.refresh_token));
    t.equal(heads.size, 1, 'one new refresh token: one head');
    t.not([...heads][0], first.body.refresh_token);
    t.equal((await refresh(c, client, [...heads][0])).status, 200, "and it is the family's current one");
  });

  await t.test('a client revoked through one replica is refused by the others at once', async (t) => {
    const client = await registerClient(a);
    const { code, verifier } = await approvedCode(b, client);
    const tokens = await exchangeCode(c, client, code, verifier);
    const token = tokens.body.access_token ?? '';
    for (const url of urls) t.not(await mcpStatus(url, token), 401, 'accepted everywhere before');
    const removed = await fetch(`${a}/register/${encodeURIComponent(client.client_id)}`, { method: 'DELETE', headers: { authorization: `Bearer ${client.registration_access_token}` } });
    t.equal(removed.status, 204, 'deleted on the first replica');
    t.equal(await mcpStatus(b, token), 401, 'the second refuses its token on the next request');
    t.equal(await mcpStatus(c, token), 401, 'so does the third');
    t.equal((await refresh(b, client, tokens.body.refresh_token)).status, 401, 'and the client itself is gone');
  });

  await t.test('the per-client rate limit holds across the replicas', async (t) => {
    const client = await registerClient(a);
    const { code, verifier } = await approvedCode(a, client);
    const token = (await exchangeCode(a, client, code, verifier)).body.access_token ?? '';
    const statuses: number[] = [];
    for (let index = 0; index < 3 * CALLS_PER_MINUTE; index++) statuses.push(await mcpStatus(urls[index % 3] as string, token));
    const accepted = statuses.filter((status) => status !== 429).length;
    // Each replica writes its count every 5% of the limit and reads the store before every
    // call from 80% of it, so together they pass it by at most 5% each; the sliding window
    // itself lets about one call a second back in while the test runs.
    const bound = CALLS_PER_MINUTE + 2 * Math.max(1, Math.floor(CALLS_PER_MINUTE * 0.05)) + 2;
    t.ok(accepted >= CALLS_PER_MINUTE && accepted <= bound, `${accepted} of ${statuses.length} calls accepted (limit ${CALLS_PER_MINUTE} a minute, bound ${bound})`);
    t.same(statuses.slice(-3), [429, 429, 429], 'then every replica refuses the client');
  });

  await t.test('the login throttle holds across the replicas', async (t) => {
    const client = await registerClient(a);
    const address = { 'x-forwarded-for': '203.0.113.50' };
    const guess = (index: number) =>
      attemptLogin(authorizationUrl(urls[index % 3] as string, client.client_id, client.redirect_uri, pkce().challenge, { resource: RESOURCE }), `guess ${index}`, address);
    const burst = await Promise.all(Array.from({ length: 60 }, (_, index) => guess(index)));
    const later: Response[] = [];
    for (let index = 0; index < 30; index++) later.push(await guess(index));
    const checked = [...burst, ...later].filter((response) => response.status !== 429).length;
    t.ok(checked <= 10, `${checked} of 90 guesses from one address were checked, on three replicas`);
    t.same(
      later.slice(-3).map((response) => response.status),
      [429, 429, 429],
      'every replica refuses the address',
    );
  });

  await t.test('one operator session for every replica, and one logout', async (t) => {
    const page = await fetch(`${a}/status`);
    const csrfCookie = cookiesOf(page);
    const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const login = await fetch(`${b}/login`, { ...form({ _csrf: token, password: PASSWORD, return_to: '/status' }), headers: { ...form({}).headers, cookie: csrfCookie }, redirect: 'manual' });
    t.equal(login.status, 303, "logged in on the second replica with the first one's form");
    const cookie = `${csrfCookie}; ${cookiesOf(login)}`;
    for (const url of urls) t.match(await (await fetch(`${url}/status`, { headers: { cookie } })).text(), '<h1>Hub console</h1>', "the session opens every replica's console (through /status)");
    const status = await (await fetch(`${c}/status`, { headers: { cookie } })).text();
    const logoutToken = /class="logout"[^>]*>.*?name="_csrf" value="([^"]+)"/s.exec(status)?.[1] ?? '';
    const out = await fetch(`${c}/logout`, { ...form({ _csrf: logoutToken }), headers: { ...form({}).headers, cookie }, redirect: 'manual' });
    t.equal(out.status, 200, 'logged out on the third');
    t.match(await (await fetch(`${a}/status`, { headers: { cookie } })).text(), '<h1>Log in to the hub</h1>', 'the first no longer knows the session');
  });
}

t.test('three replicas on one embedded store (one DATA_PATH)', (t) => replicaChecks(t, {}));

const mongodbUrl = process.env.MONGODB_URL;
t.test('three replicas on one MongoDB', { skip: mongodbUrl ? false : 'MONGODB_URL is not set: the MongoDB replicas are not run here' }, (t) => {
  const url = new URL(mongodbUrl ?? 'mongodb://localhost');
  url.pathname = `/replicas-${randomUUID()}`;
  return replicaChecks(t, { mongodbUrl: url.href });
});
