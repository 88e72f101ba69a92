import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import t from 'tap';
import { sharedChromium } from '../../helpers/chromium.js';
import { connectClient } from '../../helpers/clients.js';
import { everythingEntry, operatorSession, PASSWORD, startConsoleHub } from './helpers.js';

/*
 * Issue 52, the calls view (/console/calls) in real Chromium: calls made with the v2 SDK
 * on /<name>/mcp and from the console's playground appear live, without a reload (the
 * playground's with caller "console" and via "console"); the outcome filter; a failed
 * call's detail (the tool's error, the trace id); a hostile child's tool name shown as
 * text; axe finds no serious or critical violation; no rule of the CSP is broken.
 *
 * Road x channel: roads /<name>/mcp (2026-07-28 and 2025-11-25) and the playground; the
 * channel shown is the call record (tool name, caller, error text), each as text.
 *
 * With DOCS_SCREENSHOTS=1 it writes docs/console-calls.png, the picture in docs/operations/console.md.
 */

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const CRASHY = fileURLToPath(new URL('../../fixtures/children/crashy.js', import.meta.url));
const HOSTILE = fileURLToPath(new URL('../../fixtures/children/hostile-markup.js', import.meta.url));
const SCREENSHOT = fileURLToPath(new URL('../../../../docs/console-calls.png', import.meta.url));
const MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

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

t.test('calls appear live, filtered by outcome; a failed call’s detail; a hostile tool name stays text', async (t) => {
  const config = JSON.stringify({
    plugins: { 'oauth-as': false, 'map-tools': false },
    mcpServers: {
      everything: { ...everythingEntry(), keepAlive: true },
      hostile: { command: process.execPath, args: [HOSTILE], keepAlive: true },
    },
  });
  const { url } = await startConsoleHub(t, config);
  const browser = await sharedChromium(t);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  // The login started at the calls view comes back to it.
  await page.goto(`${url}/console/calls`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Calls', exact: true }).waitFor();
  await page.getByText('Live: new calls appear as they end.').waitFor();
  t.match(await page.locator('#calls').textContent(), /No tool call yet/, 'no call yet');
  const loads: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) loads.push(frame.url());
  });

  // A call with the v2 SDK on /everything/mcp appears without a reload.
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  await client.callTool({ name: 'echo', arguments: { message: 'hello calls' } });
  const rows = page.locator('#call-table tbody tr');
  await rows.first().waitFor();
  t.equal(await rows.count(), 1, 'the call is in the table');
  const first = rows.first();
  t.equal(await first.locator('td[data-label="Server"]').textContent(), 'everything');
  t.equal(await first.locator('td[data-label="Tool"]').textContent(), 'echo');
  t.equal(await first.locator('td[data-label="Outcome"]').textContent(), 'ok');
  t.equal(await first.locator('td[data-label="Caller"]').textContent(), '(open hub)', 'an open hub’s caller');
  t.match(await first.locator('td[data-label="Duration"]').textContent(), /^[\d.]+ ms$/);
  t.equal(await first.locator('td[data-label="In"]').textContent(), `${JSON.stringify({ message: 'hello calls' }).length} B`, 'bytes in');
  t.match(await first.locator('td[data-label="Out"]').textContent(), /^\d+(\.\d)? [KM]?B$/, 'bytes out');

  // A call from the playground, in a second tab of the same browser.
  const playground = await context.newPage();
  await playground.goto(`${url}/console`);
  await playground.getByRole('button', { name: 'Tools of everything' }).click();
  const echo = playground.getByRole('article', { name: 'Tool echo' });
  await echo.getByText('Try it').click();
  await echo.getByLabel('message (required)').fill('from the playground');
  await echo.getByRole('button', { name: 'Call echo' }).click();
  await echo.locator('.call-result .part-text').waitFor();
  await playground.close();
  await page.locator('#call-table tbody tr:nth-child(2)').waitFor();
  t.equal(await rows.first().locator('td[data-label="Caller"]').textContent(), 'console', 'the playground’s call is the console’s, newest first');
  await rows.first().getByRole('button').click();
  await page.getByRole('heading', { name: /^Call \d+: echo on everything$/ }).waitFor();
  const via = await page.locator('#call-detail dt', { hasText: /^Via$/ }).locator('xpath=following-sibling::dd[1]').textContent();
  t.equal(via, 'console', 'its detail says via: console');

  // A failed call (a tool error), with a trace id, on the older revision.
  const older = await connectClient(t, `${url}/everything/mcp`, '2025-11-25');
  const failed = await older.callTool({ name: 'echo', arguments: {}, _meta: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` } });
  t.ok(failed.isError, 'echo without its message fails');
  await page.locator('#call-table tbody tr:nth-child(3)').waitFor();
  t.equal(await rows.first().locator('td[data-label="Outcome"]').textContent(), 'tool_error');

  // The hostile child: its tool name is markup, shown as text.
  const hostile = await connectClient(t, `${url}/hostile/mcp`, '2026-07-28');
  await hostile.callTool({ name: `echo${MARKUP}`, arguments: {} });
  await page.locator('#call-table tbody tr:nth-child(4)').waitFor();
  t.equal(await rows.first().locator('td[data-label="Tool"]').textContent(), `echo${MARKUP}`, 'the hostile tool name is shown as the text it is');
  t.equal(await page.locator('#calls img, #calls script, #call-detail img, #call-detail script').count(), 0, 'no element was made of it');
  t.same(loads, [], 'every call appeared without a reload');
  if (process.env.DOCS_SCREENSHOTS === '1') await page.screenshot({ path: SCREENSHOT });

  // Filter by outcome: only the failed call.
  await page.getByLabel('Outcome').selectOption('failed');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.waitForURL(/outcome=failed/);
  await waitForRows(page, 1);
  t.equal(await rows.first().locator('td[data-label="Outcome"]').textContent(), 'tool_error', 'outcome=failed shows the failed call only');
  await client.callTool({ name: 'echo', arguments: { message: 'an ok call, filtered out' } });
  await client.callTool({ name: 'echo', arguments: {} });
  await waitForRows(page, 2);
  t.same(await rows.locator('td[data-label="Outcome"]').allTextContents(), ['tool_error', 'tool_error'], 'the live stream follows the filter');

  // The failed call's detail: the error, the trace id.
  await rows.nth(1).getByRole('button').click();
  await page.getByRole('heading', { name: /^Call \d+: echo on everything$/ }).waitFor();
  const detail = await page.locator('#call-detail').textContent();
  t.match(detail, /message/i, 'the tool’s error is shown');
  t.match(detail, new RegExp(TRACE_ID), 'with the trace id');
  t.match(detail, /2025-11-25/, 'and the revision');
  t.equal(
    await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id),
    'call-detail-title',
    'the focus moves to the detail',
  );

  t.same(await axeViolations(page), [], 'axe: no serious or critical violation on the calls view');
  t.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined, 'nothing ran');
  t.same(problems, [], 'no script error and no CSP violation');
});

t.test('an API token’s call shows the token’s label beside its id, as text; a failed call’s detail, the child’s stderr as text', async (t) => {
  const crashy = { command: process.execPath, args: [CRASHY], env: { CRASH_NOTE: `said ${MARKUP}` } };
  const { url } = await startConsoleHub(t, JSON.stringify({ plugins: { 'map-tools': false }, mcpServers: { everything: { ...everythingEntry(), keepAlive: true }, crashy } }));
  const session = await operatorSession(url);
  const minted = await fetch(`${url}/console/api/tokens`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ label: `laptop${MARKUP}`, resources: ['everything'] }) });
  t.equal(minted.status, 201, 'a token minted with a label of markup');
  const token = (await minted.json()) as { id: string; token: string };
  const forCrashy = (await (await fetch(`${url}/console/api/tokens`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ resources: ['crashy'] }) })).json()) as { token: string };
  const browser = await sharedChromium(t);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${url}/console/calls`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByText('Live: new calls appear as they end.').waitFor();

  const client = await connectClient(t, `${url}/everything/mcp`, '2025-11-25', { authorization: `Bearer ${token.token}` });
  await client.callTool({ name: 'echo', arguments: { message: 'from a token' } });
  const row = page.locator('#call-table tbody tr').first();
  await row.waitFor();
  const shown = `laptop${MARKUP} (api-token:${token.id})`;
  t.equal(await row.locator('td[data-label="Caller"]').textContent(), shown, 'the caller: the label, then the id');
  await row.getByRole('button').click();
  const caller = await page
    .locator('#call-detail dt', { hasText: /^Caller$/ })
    .locator('xpath=following-sibling::dd[1]')
    .textContent();
  t.equal(caller, shown, 'so in the detail');

  // A crash: its detail has the child's last stderr lines, the markup it printed as text.
  const crashing = await connectClient(t, `${url}/crashy/mcp`, '2026-07-28', { authorization: `Bearer ${forCrashy.token}` });
  await crashing.callTool({ name: 'crash', arguments: {} }).catch(() => undefined);
  await page.locator('#call-table tbody tr:nth-child(2)').waitFor();
  await page.locator('#call-table tbody tr').first().getByRole('button').click();
  await page.getByRole('heading', { name: /^Call \d+: crash on crashy$/ }).waitFor();
  t.equal(await page.locator('#call-detail pre.call-stderr').textContent(), `said ${MARKUP}\ncrashing on request`, 'the child’s stderr, as text');
  t.equal(await page.locator('#calls img, #calls script, #call-detail img, #call-detail script').count(), 0, 'no element was made of the label or the stderr');
  t.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined, 'nothing ran');
  t.same(problems, [], 'no script error');
});

async function waitForRows(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (expected) => (globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } }).document.querySelectorAll('#call-table tbody tr').length === expected,
    count,
  );
}
