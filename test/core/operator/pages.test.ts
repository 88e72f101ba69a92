import { createServer } from 'node:http';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import t, { type Test } from 'tap';
import { hub, onKernel } from '../../../core/kernel.js';
import type { Hub } from '../../../core/hub.js';
import { FAST, waitFor } from '../children/helpers.js';
import { freePort, listenOnLoopback } from '../../helpers/net.js';
import { pkce } from '../../plugins/oauth-as/browserless.js';
import { SCOPE, startUpstreamWorld } from '../../plugins/upstream-oauth/upstream-world.js';

// The three pages a person uses (the approval page, the upstream logins, the status page)
// share one login, one session and one logout, and every URL they show follows the prefix
// the hub is registered under: tried in Chromium with the hub at the root of its app and
// embedded under /tools.

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PASSWORD = 'correct horse battery';

/** A host app with a route of its own and the hub registered under `prefix`, oauth-as and upstream-oauth on. */
async function hostApp(t: Test, prefix: string) {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const base = `${origin}${prefix}`;
  const world = await startUpstreamWorld(t, () => [], `${base}/upstreams/callback`);
  const dataPath = await mkdtemp(join(tmpdir(), 'operator-pages-'));
  const app = Fastify({ logger: false });
  app.get('/hello', async () => ({ hello: 'from the host application' }));
  let context: Hub | undefined;
  await app.register(hub, {
    prefix,
    config: {
      mcpServers: { dyn: { url: world.mcpUrl, oauth: { mode: 'dcr', scope: SCOPE } } },
      plugins: { 'oauth-as': true, 'map-tools': false, 'upstream-oauth': { allowLoopbackAuthorizationServers: true } },
    },
    env: { DATA_PATH: dataPath, BASE_URL: base, HUB_PASSWORD: PASSWORD },
    children: { ...FAST, wakeBudgetMs: 10_000 },
    [onKernel]: (created) => void (context = created),
  });
  await app.listen({ host: '127.0.0.1', port });
  t.teardown(() => app.close());
  if (!context) throw new Error('the hub plugin did not call setup');
  return { origin, base, world, hub: context };
}

/** Where an OAuth client would receive its code: resolves with each URL the browser lands on. */
async function redirectTarget(t: Test) {
  let landed: (url: URL) => void = () => undefined;
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Done</title><p>Done.</p>');
    landed(new URL(request.url ?? '/', 'http://127.0.0.1'));
  });
  const url = `http://127.0.0.1:${await listenOnLoopback(t, server)}/callback`;
  return { url, next: () => new Promise<URL>((resolve) => (landed = resolve)) };
}

async function authorizationUrl(base: string, redirectUri: string): Promise<string> {
  const registered = await fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], client_name: 'Pages test client' }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: redirectUri,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: 'st',
    resource: `${base}/hub`,
  });
  return `${base}/authorize?${query}`;
}

async function usePages(t: Test, browser: Browser, prefix: string) {
  const { origin, base, world, hub: context } = await hostApp(t, prefix);
  const dyn = context.children.get('dyn');
  await waitFor('the upstream to need a login', () => dyn?.status === 'unauthorized');
  const target = await redirectTarget(t);
  // With scripts: the console's overview (where /status leads) is drawn by its script.
  const browserContext = await browser.newContext();
  t.teardown(() => browserContext.close());
  const page = await browserContext.newPage();
  const path = () => new URL(page.url()).pathname;

  // The approval page: the password allows the grant, and logs the browser in.
  await page.goto(await authorizationUrl(base, target.url));
  t.equal(await page.textContent('h1'), 'Allow access?');
  t.equal(await page.getAttribute('form', 'action'), `${prefix}/authorize`, 'the form posts under the prefix');
  const code = target.next();
  await page.fill('#password', PASSWORD);
  await page.click('button[value=approve]');
  const redirect = await code;
  t.ok(redirect.searchParams.get('code'), 'the client gets its code');
  t.equal(redirect.searchParams.get('iss'), base);
  const cookies = await browserContext.cookies();
  t.same(
    cookies.map((cookie) => [cookie.name, cookie.path, cookie.httpOnly]).sort(),
    [
      ['hub_csrf', prefix || '/', true],
      ['hub_session', prefix || '/', true],
    ],
    'one session cookie and one CSRF cookie, scoped to the prefix',
  );

  // The status page: the same session, no second login.
  await page.goto(`${base}/status`);
  t.equal(await page.textContent('h1'), 'Hub console', "the approval's login serves the console (/status leads to its overview)");
  t.equal(path(), `${prefix}/console/overview`, 'the redirect follows the prefix');
  t.equal(await page.getAttribute('a[aria-current=page]', 'href'), `${prefix}/console/overview`, 'its links follow the prefix');

  // The upstream logins, reached from the status page, on the same session.
  await page.click('a:has-text("Upstream logins")');
  t.equal(path(), `${prefix}/upstreams`);
  t.equal(await page.textContent('#upstream-dyn .status'), 'unauthorized');
  await page.click('button:has-text("Log in to dyn")');
  t.equal(new URL(page.url()).origin, world.issuer, "at the upstream's authorization server");
  await page.fill('input[name=login]', 'operator');
  await page.fill('input[name=password]', 'anything');
  await page.click('button[type=submit]');
  await page.click('button[type=submit]');
  t.equal(path(), `${prefix}/upstreams/callback`, "back on the hub's callback, under the prefix");
  t.match(await page.textContent('body'), /logged in to dyn/);
  await waitFor('the upstream to come up', () => dyn?.status === 'up');

  // One logout ends the session for every page.
  await page.goto(`${base}/upstreams`);
  await page.click('.logout button');
  t.equal(path(), `${prefix}/upstreams`, 'back on the page, now logged out');
  t.equal(await page.textContent('h1'), 'Log in to the hub');
  await page.goto(`${base}/status`);
  t.equal(await page.textContent('h1'), 'Log in to the hub', 'the status page asks again too');

  // The login form: a wrong password, then the right one, back to the page asked for.
  t.equal(await page.getAttribute('form', 'action'), `${prefix}/login`);
  await page.fill('#password', 'wrong');
  await page.click('button[type=submit]');
  t.equal(await page.textContent('[role=alert]'), 'Wrong password.');
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  t.equal(path(), `${prefix}/console/overview`);
  await page.locator('#server-dyn .status').waitFor();
  t.match(await page.textContent('#server-dyn .status'), 'up');

  // A session does not replace the password on the approval page.
  await page.goto(await authorizationUrl(base, target.url));
  t.equal(await page.textContent('h1'), 'Allow access?');
  t.ok(await page.isVisible('#password'), 'with a session, allowing still takes the password');

  if (prefix) {
    for (const outside of ['/status', '/upstreams', '/authorize']) t.equal((await fetch(`${origin}${outside}`)).status, 404, `nothing at ${outside} outside the prefix`);
    t.equal((await fetch(`${origin}/login`, { method: 'POST' })).status, 404);
    t.same(await (await fetch(`${origin}/hello`)).json(), { hello: 'from the host application' }, 'the host app keeps its own routes');
  }
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
t.teardown(() => browser.close());

t.test('the pages at the root of the app', (t) => usePages(t, browser, ''));
t.test('the pages with the hub embedded under /tools', (t) => usePages(t, browser, '/tools'));
