import { chromium } from 'playwright-core';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { everythingEntry } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PASSWORD = 'correct horse battery';
/** A server that cannot start: it says why on stderr and exits. */
const BROKEN = { command: process.execPath, args: ['-e', "process.stderr.write('error: cannot open the database\\n'); process.exit(1)"] };

t.test('the operator reads the status page in Chromium, on a desktop and on a phone', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { everything: everythingEntry(), broken: BROKEN }, plugins: { 'map-tools': false, observability: { statusRefreshSeconds: 30 } } },
    env: { HUB_PASSWORD: PASSWORD },
  });
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  for (const message of ['one', 'two', 'three']) await client.callTool({ name: 'echo', arguments: { message } });
  await client.callTool({ name: 'echo', arguments: { message: 7 } });
  await hub.children.get('broken')?.ensureUp().catch(() => undefined);
  t.equal(hub.children.get('broken')?.status, 'down', 'the broken server is down');

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  t.teardown(() => browser.close());
  const page = await browser.newPage({ javaScriptEnabled: false });

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
  t.equal(new URL(page.url()).pathname, '/status', 'back on the status page');
  t.equal(await page.textContent('h1'), 'Hub status');
  t.same(await page.$$eval('h2', (headings) => headings.map((heading) => heading.textContent)), ['1 server needs attention', 'Servers', 'Hub'], 'headings say what each part is');
  t.equal(await page.getAttribute('meta[http-equiv=refresh]', 'content'), '30', 'the page refreshes itself, as often as configured');

  const alert = await page.textContent('[role=alert]');
  t.match(alert, /broken: down \(.*cannot open the database/, 'the server in trouble is an alert, with its reason');
  const everything = (selector: string) => page.textContent(`#server-everything ${selector}`);
  t.equal(await everything('.status'), 'up');
  t.equal(await everything('.calls'), '4', 'calls in the last hour');
  t.equal(await everything('.errors'), '1', 'errors in the last hour');
  t.match(await everything('.tools'), /^\d+$/, 'the tool count');
  t.not(Number(await everything('.tools')), 0);
  t.match(await page.textContent('#server-everything'), /\d+(\.\d)? ms.*\d+(\.\d)? ms/, 'p50 and p99');
  t.match(await page.textContent('#server-everything'), /\(wake\).*after \d+\.\d\d s/, 'the last start, why, and how long it took to come up');
  t.equal(await page.textContent('#server-broken .status'), 'down');
  t.match(await page.textContent('#server-broken'), /cannot open the database/, 'the reason is in the row too');

  // Expressions run in the page (this project compiles without the DOM library).
  const primary = (await page.evaluate(`(() => { const link = document.querySelector('a.primary'); const style = getComputedStyle(link); return { text: link.textContent, background: style.backgroundColor, colour: style.color }; })()`)) as { text: string; background: string; colour: string };
  t.equal(primary.text, 'Refresh now');
  t.not(primary.background, 'rgba(0, 0, 0, 0)', 'the primary action is filled, so it looks primary');
  t.not(primary.background, primary.colour);

  // A phone: the table becomes one card per server, and nothing scrolls sideways.
  const phone = await browser.newPage({ javaScriptEnabled: false, viewport: { width: 375, height: 740 } });
  await phone.context().addCookies(await page.context().cookies());
  await phone.goto(`${url}/status`);
  t.equal(await phone.textContent('h1'), 'Hub status', 'the session works there too');
  const widths = (await phone.evaluate('({ page: document.documentElement.scrollWidth, viewport: window.innerWidth })')) as { page: number; viewport: number };
  t.ok(widths.page <= widths.viewport, `no sideways scrolling (${widths.page} <= ${widths.viewport})`);
  t.equal(await phone.evaluate(`getComputedStyle(document.querySelector('#server-everything td.calls'), '::before').content`), '"Calls (1 h): "', 'each value is labelled on a phone');
});

t.test('without the session cookie /status asks for the password, and a forged form is refused', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  const asked = await fetch(`${url}/status`, { headers: { cookie: 'hub_session=ses_made-up' } });
  t.equal(asked.status, 200);
  t.match(await asked.text(), /Log in with the hub password/);
  const forged = await fetch(`${url}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `_csrf=x&password=${encodeURIComponent(PASSWORD)}&return_to=%2Fstatus`, redirect: 'manual' });
  t.equal(forged.status, 403, 'no CSRF cookie: refused, even with the right password');
  t.equal(forged.headers.get('set-cookie'), null, 'and no session');
});
