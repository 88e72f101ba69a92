import { chromium } from 'playwright-core';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { waitFor } from '../../core/children/helpers.js';
import { SCOPE, startUpstreamWorld } from './upstream-world.js';
import { freePort } from '../../helpers/net.js';
import { PASSWORD, startUpstreamHub } from './upstream-hub.js';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

t.test('the operator logs the hub in to an upstream with Chromium', async (t) => {
  const port = await freePort();
  const world = await startUpstreamWorld(t, () => [], `http://127.0.0.1:${port}/upstreams/callback`);
  const running = await startUpstreamHub(t, { port, servers: { dyn: { url: world.mcpUrl, oauth: { mode: 'dcr', scope: SCOPE } } } });
  const child = running.hub.children.get('dyn');
  await waitFor('the server to need a login', () => child?.status === 'unauthorized');

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  t.teardown(() => browser.close());
  const page = await browser.newPage({ javaScriptEnabled: false });

  const first = await page.goto(`${running.url}/upstreams`);
  t.equal(first?.headers()['x-frame-options'], 'DENY', 'the page may not be framed');
  t.match(first?.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
  await page.fill('input[name=password]', PASSWORD);
  await page.click('button[type=submit]');
  t.equal(await page.textContent('#upstream-dyn .status'), 'unauthorized', 'the page lists the upstream as unauthorized');

  await page.click('button:has-text("Log in to dyn")');
  t.equal(new URL(page.url()).origin, world.issuer, "the browser is at the upstream's authorization server");
  // oidc-provider's development login, then its consent screen.
  await page.fill('input[name=login]', 'operator');
  await page.fill('input[name=password]', 'anything');
  await page.click('button[type=submit]');
  await page.click('button[type=submit]');
  t.equal(page.url().startsWith(`${running.url}/upstreams/callback?`), true, "back on the hub's callback");
  t.match(await page.textContent('body'), /logged in to dyn/);

  await waitFor('the server to come up', () => child?.status === 'up');
  await page.goto(`${running.url}/upstreams`);
  t.equal(await page.textContent('#upstream-dyn .status'), 'up', 'the page shows the server up');
  const client = await connectClient(t, `${running.url}/dyn/mcp`, '2026-07-28');
  t.same((await client.callTool({ name: 'secret', arguments: {} })).content, [{ type: 'text', text: 'the secret' }], 'an MCP call through /dyn/mcp succeeds');

  await page.click('button:has-text("Log out of dyn")');
  t.match(await page.textContent('body'), /Logged out of dyn/);
  t.equal(await page.textContent('#upstream-dyn .status'), 'unauthorized', 'logout returns the server to unauthorized');
});
