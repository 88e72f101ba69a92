import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import t from 'tap';
import { sharedChromium } from '../../helpers/chromium.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { fixtureEntry, tempDir, waitFor } from '../../core/children/helpers.js';
import { everythingEntry } from './helpers.js';

const PASSWORD = 'correct horse battery';
/** A server that cannot start: it says why on stderr and exits. */
const BROKEN = { command: process.execPath, args: ['-e', "process.stderr.write('error: cannot open the database\\n'); process.exit(1)"] };

interface StatusJson {
  servers: Array<{
    name: string;
    status: string;
    restarts: number;
    crashes: number;
    recent: { calls: number; failed: number };
    lastFailure: { kind: string; reason: string } | null;
    tools: Array<{ name: string; calls: number }>;
  }>;
}

async function logIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/status`);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.locator('#overview table').first().waitFor();
}

/**
 * Issue 27, defect 6: the status page's counts reset on reload and it had no restart
 * counts, last crash reason after recovery, per-tool breakdown, JSON variant or actions.
 * Issue 52: the status is the console's overview; /status sends the operator there.
 */
t.test("the operator reads the status in the console's overview in Chromium, on a desktop and on a phone", async (t) => {
  const folder = await tempDir(t);
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { everything: everythingEntry(), broken: BROKEN, crashy: fixtureEntry('crashy', `${folder}/crashy`) }, plugins: { 'map-tools': false } },
    env: { HUB_PASSWORD: PASSWORD },
    kernel: (kernel) => kernel.children.configure({ backoffBaseMs: 50, backoffMaxMs: 200 }),
  });
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  for (const message of ['one', 'two', 'three']) await client.callTool({ name: 'echo', arguments: { message } });
  await client.callTool({ name: 'echo', arguments: { message: 7 } });
  await hub.children
    .get('broken')
    ?.ensureUp()
    .catch(() => undefined);
  t.equal(hub.children.get('broken')?.status, 'down', 'the broken server is down');
  // A crash, after which the hub restarts the server.
  const crashy = await connectClient(t, `${url}/crashy/mcp`, '2025-11-25');
  await crashy.callTool({ name: 'crash', arguments: {} }).catch(() => undefined);
  // Its starts file has a line per process: the second is the restart after the crash.
  const starts = async () => (await readFile(`${folder}/crashy`, 'utf8')).trim().split('\n').length;
  await waitFor('the crashed server to be restarted', async () => hub.children.get('crashy')?.status === 'up' && (await starts()) === 2);

  const browser = await sharedChromium(t);
  const page = await browser.newPage();

  const first = await page.goto(`${url}/status`);
  t.equal(first?.headers()['x-frame-options'], 'DENY', 'the page may not be framed');
  t.notOk((await page.content()).includes('everything'), 'nothing about the servers before the login');
  t.equal(await page.getAttribute('#password', 'type'), 'password');
  t.equal(await page.textContent('label[for=password]'), 'Hub password', 'the password field has a label');
  await page.fill('#password', 'wrong');
  await page.click('button[type=submit]');
  t.equal(await page.textContent('[role=alert]'), 'Wrong password.', 'a wrong password is announced as an alert');

  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  await page.locator('#overview table').first().waitFor();
  await page.locator('#hub-overview dl').waitFor();
  t.equal(new URL(page.url()).pathname, '/console/overview', "/status leads to the console's overview, after the login too");
  t.equal(await page.textContent('h1'), 'Hub console');
  t.equal(await page.getAttribute('nav a[aria-current=page]', 'href'), '/console/overview', 'the navigation says which view this is');
  t.same(
    await page.$$eval('h2', (headings: { textContent: string | null }[]) => headings.map((heading) => heading.textContent)),
    ['1 server needs attention', 'Servers', 'Tools since the start', 'Hub', 'The hub now'],
    'headings say what each part is, what needs attention first',
  );
  t.match(await page.textContent('#overview'), 'read again every 15 s', 'the overview reads itself again, as often as statusRefreshSeconds says');

  const alert = await page.textContent('[role=alert]');
  t.match(alert, /broken: down \(.*cannot open the database/, 'the server in trouble is an alert, with its reason');
  const everything = (selector: string) => page.textContent(`#server-everything ${selector}`);
  t.equal(await everything('.status'), 'up');
  t.equal(await everything('.calls'), '4', 'calls in the last hour');
  t.equal(await everything('.errors'), '1', 'errors in the last hour');
  t.match(await everything('.tools'), /^\d+$/, 'the tool count');
  t.not(Number(await everything('.tools')), 0);
  t.match(await page.textContent('#server-everything'), /\d+(\.\d)? ms.*\d+(\.\d)? ms/, 'p50 and p99');
  t.match(await page.textContent('#server-everything'), /\(wake\), up after \d+\.\d\d s/, 'the last start, why, and how long it took to come up');
  t.equal(await page.textContent('#server-broken .status'), 'down');
  t.match(await page.textContent('#server-broken .failure'), /start failed.*cannot open the database/, 'why it failed');
  t.equal(await page.textContent('#server-crashy .status'), 'up', 'the crashed server is up again');
  t.equal(await page.textContent('#server-crashy .restarts'), '1 (1 crash)', 'the restart, after a crash');
  t.match(await page.textContent('#server-crashy .failure'), /crashed/, 'the last crash is still shown once it recovered');
  t.equal(await page.textContent('[id="tool-everything-echo"] .calls'), '4', 'per tool');
  t.match(await page.textContent('[id="tool-everything-echo"] .outcomes'), /ok 3, (tool|protocol)_error 1/, 'by outcome');
  t.match(await page.textContent('#last-reload'), /No config reload since the start/, 'the last reload');

  // Expressions run in the page (this project compiles without the DOM library).
  const primary = await page.evaluate<{ text: string; background: string; colour: string }>(
    `(() => { const button = document.querySelector('button.primary'); const style = getComputedStyle(button); return { text: button.textContent, background: style.backgroundColor, colour: style.color }; })()`,
  );
  t.equal(primary.text, 'Refresh now');
  t.not(primary.background, 'rgba(0, 0, 0, 0)', 'the primary action is filled, so it looks primary');
  t.not(primary.background, primary.colour);

  // The same figures for scripts, behind the same session.
  const json = await page.context().request.get(`${url}/status.json`);
  t.equal(json.status(), 200);
  const data = (await json.json()) as StatusJson;
  t.match(
    data.servers.find((server) => server.name === 'everything'),
    { status: 'up', recent: { calls: 4, failed: 1 } },
    '/status.json says the same',
  );
  t.match(
    data.servers.find((server) => server.name === 'crashy'),
    { restarts: 1, crashes: 1, lastFailure: { kind: 'crash' } },
  );
  t.equal((await fetch(`${url}/status.json`)).headers.get('content-type')?.startsWith('text/html'), true, 'without the session: the login form, no data');

  // Actions: buttons that ask the console's API and draw the overview again.
  const buttons = () => page.$$eval('#server-everything .actions button', (found: { textContent: string | null }[]) => found.map((button) => button.textContent));
  const done = async (text: string) => {
    await page.locator('#notice', { hasText: text }).waitFor();
    await page.locator('#server-everything .actions button:not([disabled])').first().waitFor();
  };
  t.same(await buttons(), ['Sleep', 'Restart'], 'an up server can be slept or restarted');
  await page.click('#server-everything button[data-action=sleep]');
  await done('Server everything put to sleep.');
  t.equal(new URL(page.url()).pathname, '/console/overview', 'still on the overview');
  t.equal(await everything('.status'), 'sleeping', 'asleep');
  t.same(await buttons(), ['Wake'], 'a sleeping one can be woken');
  await page.click('#server-everything button[data-action=wake]');
  await done('Server everything woken.');
  t.equal(await everything('.status'), 'up');
  await page.click('#server-everything button[data-action=restart]');
  await done('Server everything restarted.');
  t.equal(await everything('.status'), 'up');
  t.equal(await everything('.restarts'), '1', 'the restart is counted');
  t.equal(await everything('.calls'), '4', 'the figures outlive the restart');

  // A phone: the table becomes one card per server, and nothing scrolls sideways.
  const phone = await browser.newPage({ viewport: { width: 375, height: 740 } });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${url}/status?from=phone`);
  t.equal(new URL(phone.url()).search, '?from=phone', 'the query string goes along');
  await phone.locator('#overview table').first().waitFor();
  t.equal(await phone.textContent('h1'), 'Hub console', 'the session works there too');
  const widths = await phone.evaluate<{ page: number; viewport: number }>('({ page: document.documentElement.scrollWidth, viewport: window.innerWidth })');
  t.ok(widths.page <= widths.viewport, `no sideways scrolling (${widths.page} <= ${widths.viewport})`);
  t.equal(await phone.evaluate(`getComputedStyle(document.querySelector('#server-everything td.calls'), '::before').content`), '"Calls (1 h): "', 'each value is labelled on a phone');
});

t.test("the actions take the session and the page's CSRF token", async (t) => {
  const { url, hub } = await startTestHub(t, { config: { mcpServers: { everything: everythingEntry() }, plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  await hub.children.get('everything')?.ensureUp();
  const browser = await sharedChromium(t);
  const page = await browser.newPage();
  await logIn(page, url);
  const cookie = (await page.context().cookies()).map((entry) => `${entry.name}=${entry.value}`).join('; ');
  const token = (await page.getAttribute('meta[name=csrf-token]', 'content')) ?? '';
  t.not(token, '', 'the page carries its CSRF token');
  const sleep = (headers: Record<string, string>) => fetch(`${url}/console/api/servers/everything/sleep`, { method: 'POST', redirect: 'manual', headers });
  const forged = await sleep({ cookie, origin: url, 'sec-fetch-site': 'same-origin', 'x-csrf-token': 'made-up' });
  t.equal(forged.status, 403, "a request without the page's token is refused, session or not");
  const crossSite = await sleep({ cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'x-csrf-token': token });
  t.equal(crossSite.status, 403, 'a request from another site is refused even with a token');
  t.equal(hub.children.get('everything')?.status, 'up', 'nothing was done');
  const anonymous = await sleep({ origin: url, 'x-csrf-token': token });
  t.equal(anonymous.status, 401, 'no session: no action');
  const bearer = await sleep({ cookie, origin: url, 'sec-fetch-site': 'same-origin', 'x-csrf-token': token, authorization: 'Bearer made-up' });
  t.equal(bearer.status, 401, 'a bearer token never opens it');
  t.equal(hub.children.get('everything')?.status, 'up');
  const unknown = await fetch(`${url}/console/api/servers/nowhere/restart`, { method: 'POST', headers: { cookie, origin: url, 'sec-fetch-site': 'same-origin', 'x-csrf-token': token } });
  t.equal(unknown.status, 404, 'an unknown server is no action either');
  const wake = await fetch(`${url}/console/api/servers/everything/wake`, { method: 'POST', headers: { cookie, origin: url, 'sec-fetch-site': 'same-origin', 'x-csrf-token': token } });
  t.equal(wake.status, 409, 'an up server is not woken');
  t.match(await wake.json(), { error: { code: 'HUB_ERR_CONSOLE_ACTION_REFUSED' } });
  const slept = await sleep({ cookie, origin: url, 'sec-fetch-site': 'same-origin', 'x-csrf-token': token });
  t.equal(slept.status, 200, "with the session, the token and the hub's origin: done");
  t.equal(hub.children.get('everything')?.status, 'sleeping');
});

t.test('without the session cookie /status asks for the password, and a forged form is refused', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  const asked = await fetch(`${url}/status`, { headers: { cookie: 'hub_session=ses_made-up' } });
  t.equal(asked.status, 200);
  t.match(await asked.text(), /Log in with the hub password/);
  const forged = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `_csrf=x&password=${encodeURIComponent(PASSWORD)}&return_to=%2Fstatus`,
    redirect: 'manual',
  });
  t.equal(forged.status, 403, 'no CSRF cookie: refused, even with the right password');
  t.equal(forged.headers.get('set-cookie'), null, 'and no session');
});

t.test('with the console off, /status says where the figures are', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false, console: false } }, env: { HUB_PASSWORD: PASSWORD } });
  const browser = await sharedChromium(t);
  const page = await browser.newPage();
  await page.goto(`${url}/status`);
  await page.fill('#password', PASSWORD);
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/status' && response.request().method() === 'GET');
  await page.click('button[type=submit]');
  t.equal((await answer).status(), 404);
  t.match(await page.textContent('body'), 'which is off here', 'the page says why');
  t.equal(await page.getAttribute('a[href$="json"]', 'href'), '/status.json');
});
