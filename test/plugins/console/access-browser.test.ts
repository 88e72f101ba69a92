import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import t from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { sharedChromium } from '../../helpers/chromium.js';
import { connectClient } from '../../helpers/clients.js';
import { register } from '../oauth-as/flows.js';
import { everythingEntry, PASSWORD, startConsoleHub } from './helpers.js';

/*
 * Issue 52, item 4 in real Chromium, each step through the page as a person does it: log in
 * at the access view, mint a token opening only server-everything with the keyboard alone,
 * call that server over MCP with the v2 SDK using the token and see another server refused,
 * revoke the token in the page and see the SDK call refused; a form error announced at its
 * field; axe finds no serious or critical violation; nothing breaks the page's CSP; the
 * view on a phone; an OAuth client that registered itself with markup in its name is
 * listed as text and its tokens revoked with the keyboard. With DOCS_SCREENSHOTS=1 it writes docs/operations/console-access.png
 * (the token cut short).
 */

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOT = new URL('../../../../docs/operations/console-access.png', import.meta.url);

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
  });
  return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes} nodes)`);
}

t.test('mint a token for server-everything with the keyboard, call it over MCP, revoke it in the page', async (t) => {
  const other = { command: process.execPath, args: [fixture('changing-tools')] };
  const { url, logs } = await startConsoleHub(t, JSON.stringify({ plugins: { 'map-tools': false }, mcpServers: { everything: everythingEntry(), other } }));
  const browser = await sharedChromium(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());

  await page.goto(`${url}/console/access`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  t.equal(new URL(page.url()).pathname, '/console/access', 'the login comes back to the access view');
  t.equal(await page.locator('nav a[aria-current=page]').textContent(), 'Access', 'the view is in the console’s navigation');
  await page.getByText('No API token yet').waitFor();
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation on the empty view');

  // A mint with nothing ticked: the error is announced at the fieldset and takes the focus.
  await page.getByRole('button', { name: 'Mint the token' }).click();
  await page.locator('#mint-opens-error:not(:empty)').waitFor();
  t.match(await page.locator('#mint-opens-error').textContent(), /Tick what the token opens/);
  const focused = () => page.evaluate<string>("document.activeElement?.id || document.activeElement?.textContent || ''");
  t.equal(await focused(), 'mint-all', 'the focus goes to the first choice');
  t.same(await axeViolations(page), [], 'axe: none with the error shown');

  // The mint form with the keyboard alone, from the top of the page.
  await page.reload();
  await page.getByText('No API token yet').waitFor();
  for (let step = 0; step < 40 && (await focused()) !== 'mint-label'; step++) await page.keyboard.press('Tab');
  t.equal(await focused(), 'mint-label', 'the label field is reached with Tab');
  await page.keyboard.type('laptop');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'mint-all');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'resource-hub');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'resource-everything');
  await page.keyboard.press('Space');
  t.ok(await page.locator('#resource-everything').isChecked(), 'ticked with Space');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'resource-other');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'mint-expiry', 'the /hub servers are skipped while /hub is not ticked');
  await page.keyboard.type('7');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'mint', 'then the Mint button');
  await page.keyboard.press('Enter');
  await page.locator('#minted:not([hidden])').waitFor();
  t.equal(await focused(), 'minted-title', 'the new token takes the focus');
  const token = (await page.locator('#minted-token').textContent()) ?? '';
  t.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'the token is shown');
  t.match(
    await page.locator('#snippet-claude-code').textContent(),
    `claude mcp add --transport http 'everything' '${url}/everything/mcp' --header 'Authorization: Bearer ${token}'`,
    'with the Claude Code snippet',
  );
  t.same(
    JSON.parse((await page.locator('#snippet-vs-code').textContent()) ?? ''),
    { servers: { everything: { type: 'http', url: `${url}/everything/mcp`, headers: { Authorization: `Bearer ${token}` } } } },
    'the VS Code one',
  );
  t.match(await page.locator('#snippet-sdk').textContent(), "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';", 'and the v2 SDK one');
  const row = page.locator('#token-list tbody tr', { hasText: 'laptop' });
  await row.waitFor();
  t.match(await row.textContent(), /laptop.*\/everything\/mcp.*UTC.*never.*UTC.*active/, 'listed: label, what it opens, created, never used, its expiry, active');
  t.notMatch(await page.locator('#token-list').textContent(), token.split('.')[2] ?? '-', 'the list never shows the token');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation with the token and the list shown');
  // The picture shows the token cut short: a whole one (of a hub long gone) has no place in the docs.
  await page.evaluate((whole) => {
    for (const pre of (globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<{ textContent: string | null }> } }).document.querySelectorAll('#minted pre'))
      pre.textContent = (pre.textContent ?? '').replaceAll(whole, `${whole.slice(0, 16)}…`);
  }, token);
  const shot = await page.screenshot({ fullPage: true });
  t.equal(shot.subarray(1, 4).toString(), 'PNG', 'a screenshot of the view');
  if (process.env.DOCS_SCREENSHOTS === '1') await writeFile(SCREENSHOT, shot);

  // The token over MCP, with the v2 SDK: server-everything answers, the other server refuses it.
  const bearer = { authorization: `Bearer ${token}` };
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28', bearer);
  const echoed = await client.callTool({ name: 'echo', arguments: { message: 'through the console token' } });
  t.match(JSON.stringify(echoed.content), 'through the console token', 'server-everything answers the token');
  await t.rejects(connectClient(t, `${url}/other/mcp`, '2026-07-28', bearer), 'another server refuses it');
  await page.reload();
  await row.waitFor();
  t.notMatch(await row.locator('td[data-label="Last used"]').textContent(), 'never', 'the last use is shown');

  // "Hide" takes the token off the page; revoke in the page, and the SDK is refused.
  await page.reload();
  t.equal(await page.locator('#minted-token').count(), 0, 'the token is not shown again');
  await row.getByRole('button', { name: /^Revoke laptop/ }).click();
  await page.locator('#notice', { hasText: 'revoked' }).waitFor();
  t.match(await row.locator('td[data-label="Status"]').textContent(), 'revoked', 'listed as revoked');
  t.equal(await row.getByRole('button', { name: /^Revoke/ }).count(), 0, 'with no Revoke button');
  await t.rejects(client.callTool({ name: 'echo', arguments: { message: 'after' } }), 'the SDK call is refused once revoked');
  await t.rejects(connectClient(t, `${url}/everything/mcp`, '2025-11-25', bearer), 'and a new connection');

  t.notOk(
    logs.some((line) => line.includes(token.split('.')[2] ?? '-')),
    'no log record holds the token',
  );
  t.same(problems, [], 'no script error and nothing the CSP refused');
});

t.test('the access view on a phone: no sideways scrolling; the minted token can be hidden', async (t) => {
  const { url } = await startConsoleHub(t, JSON.stringify({ plugins: { 'map-tools': false }, mcpServers: { alpha: { command: process.execPath, args: [fixture('changing-tools')] } } }));
  const browser = await sharedChromium(t);
  const page = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
  await page.goto(`${url}/console/access`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'API tokens' }).waitFor();
  await page.getByLabel('Every endpoint').check();
  t.ok(await page.locator('#resource-alpha').isDisabled(), '"Every endpoint" excludes the single choices');
  await page.getByRole('button', { name: 'Mint the token' }).click();
  await page.locator('#minted:not([hidden])').waitFor();
  await page.locator('#token-list tbody tr').waitFor();
  t.ok(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'), 'nothing wider than the phone');
  await page.getByRole('button', { name: 'I have copied it: hide the token' }).click();
  t.ok(await page.locator('#minted').isHidden(), 'hidden');
  t.equal(await page.locator('#minted-token').count(), 0, 'and gone from the page');
  t.equal(await page.evaluate<string>('document.activeElement.id'), 'tokens-title', 'the focus goes to the list');
});

t.test('OAuth clients: a hostile name shown as text, revoked with the keyboard', async (t) => {
  const { url } = await startConsoleHub(t, JSON.stringify({ plugins: { 'map-tools': false }, mcpServers: {} }));
  const hostile = '<img src=x onerror="document.title=\'pwned\'"><b>bold</b>';
  const registered = await register(url, { redirect_uris: ['http://127.0.0.1:5555/cb'], client_name: hostile, token_endpoint_auth_method: 'none' });
  t.equal(registered.status, 201, 'a client registered itself');
  const clientId = registered.body.client_id ?? '';
  const browser = await sharedChromium(t);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${url}/console/access`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  const row = page.locator(`#client-list tr[data-client="${clientId}"]`);
  await row.waitFor();
  t.equal(await row.locator('th span').textContent(), hostile, 'the name is shown as the text it is');
  t.equal(await page.locator('#client-list img, #client-list b').count(), 0, 'no markup of it made an element');
  t.not(await page.title(), 'pwned', 'and nothing of it ran');
  t.match(await row.textContent(), /itself.*http:\/\/127\.0\.0\.1:5555\/cb.*UTC.*never/, 'registered by itself, its redirect URI, when, tokens never revoked');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation with the clients listed');
  await row.getByRole('button', { name: /^Revoke its tokens: / }).focus();
  await page.keyboard.press('Enter');
  await page.locator('#notice', { hasText: 'revoked' }).waitFor();
  t.equal(await page.textContent('#notice'), `Every token of OAuth client ${clientId} revoked.`, 'revoked with the keyboard alone');
  t.match(await row.locator('td[data-label="Tokens revoked"]').textContent(), /UTC/, 'listed with when');
  t.equal(await page.evaluate<string>('document.activeElement.id'), 'clients-title', 'the focus goes to the list’s heading');
  t.same(problems, [], 'no script error and nothing the CSP refused');
});
