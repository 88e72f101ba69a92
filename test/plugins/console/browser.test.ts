import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import t from 'tap';
import { waitFor } from '../../core/children/helpers.js';
import { sharedChromium } from '../../helpers/chromium.js';
import { everythingEntry, handWritten, makeUnwritable, PASSWORD, startConsoleHub, writtenServers } from './helpers.js';

/*
 * Issue 52, slice 1 in real Chromium, each step through the page as a person does it:
 * log in, add server-everything from the form, test it, save it, see it start, edit it,
 * disable it, remove it (the hand-written file back byte for byte); a conflicting save
 * from a second browser; the read-only mode; the add form with the keyboard alone; axe
 * finds no serious or critical violation; a hostile child's markup never runs; the page
 * breaks no rule of its CSP.
 *
 * With DOCS_SCREENSHOTS=1 it writes the pictures of docs/operations/console.md:
 * console-add.png (the form, tested), console-playground.png and console-overview.png.
 */

const require = createRequire(import.meta.url);
const AXE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const HOSTILE = fileURLToPath(new URL('../../fixtures/children/hostile-markup.js', import.meta.url));
const DOCS = new URL('../../../../docs/operations/', import.meta.url);

async function docsScreenshot(target: Pick<Page, 'screenshot'>, name: string, fullPage = false): Promise<void> {
  if (process.env.DOCS_SCREENSHOTS === '1') await target.screenshot({ path: fileURLToPath(new URL(name, DOCS)), ...(fullPage && { fullPage }) });
}

/** A new browser context on the console, logged in through its login form; CSP reports and script errors are collected. */
async function consolePage(browser: Browser, url: string, problems: string[] = []): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${url}/console`);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: 'Servers' }).waitFor();
  await page.locator('#server-list table').waitFor();
  return page;
}

async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern (an injected <script> would be refused).
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, nodes: violation.nodes.length }));
  });
  return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes} nodes)`);
}

function rowOf(page: Page, name: string) {
  return page.locator(`tr[id="server-${name}"]`);
}

t.test('add server-everything from the form, test it, save it, see it start, edit, disable and remove it', async (t) => {
  const original = handWritten();
  const { url, file, hub, logs } = await startConsoleHub(t, original);
  const browser = await sharedChromium(t);
  const problems: string[] = [];
  const page = await consolePage(browser, url, problems);
  t.equal(await rowOf(page, 'alpha').locator('th').textContent(), 'alpha', 'the servers of the file are listed');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation on the server list');

  await page.getByRole('button', { name: 'Add a server' }).click();
  t.equal(await page.getByRole('heading', { name: 'Add a server' }).count(), 1);
  const { command, args } = everythingEntry();
  await page.getByLabel('Name (required)').fill('everything');
  t.equal(await page.getByLabel('Type').inputValue(), 'stdio', 'stdio is the type offered first for a new entry');
  await page.getByLabel('command (required)').fill(command);
  await page.getByLabel('args').fill(args.join('\n'));
  await page.getByLabel('keepAlive').selectOption('true');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation on the form');

  await page.getByRole('button', { name: 'Test' }).click();
  await page.locator('#test-passed').waitFor({ timeout: 60_000 });
  t.match(await page.locator('#test-passed h3').textContent(), /Test passed/);
  t.ok(await page.getByRole('list', { name: 'Tools found' }).getByText('echo', { exact: true }).count(), 'the test lists echo');
  t.equal(hub.children.get('everything'), undefined, 'the test registered nothing');
  await docsScreenshot(page.locator('#editor'), 'console-add.png');

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Server everything added.').waitFor();
  t.same(writtenServers(await readFile(file, 'utf8')).everything, { command, args, keepAlive: true, type: 'stdio' }, 'the entry is in the file');
  await waitFor('everything to be up in the list', async () => (await rowOf(page, 'everything').locator('.status').textContent()) === 'up', 60_000);
  t.match(await rowOf(page, 'everything').locator('.tools').textContent(), /^\d+$/, 'with its tool count');
  t.equal(await rowOf(page, 'everything').locator('.wakes').textContent(), '1', 'woken once');

  // The playground: echo called through the hub's call pipeline, as the console.
  await page.getByRole('button', { name: 'Tools of everything' }).click();
  const echo = page.getByRole('article', { name: 'Tool echo' });
  await echo.getByText('Try it').click();
  await echo.getByLabel('message (required)').fill('hello console');
  await echo.getByRole('button', { name: 'Call echo' }).click();
  await echo.locator('.call-result .part-text').waitFor();
  t.equal(await echo.locator('.call-result .part-text').textContent(), 'Echo: hello console', 'the answer is shown');
  t.match(await echo.locator('.call-result').textContent(), /Outcome: ok, in \d+ ms/, 'with the outcome and the duration');
  await docsScreenshot(echo, 'console-playground.png');
  const access = logs.map((line) => JSON.parse(line) as Record<string, unknown>).find((record) => record.via === 'console' && record.tool === 'echo');
  t.equal(access?.server, 'everything', 'the access record names the server');
  t.equal(access?.client, 'console', 'the caller');
  t.equal(access?.outcome, 'ok', 'and the outcome, with via "console"');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation on the tools and the playground');

  // Edit: the form opens over the entry as written; an env variable is added.
  await page.getByRole('button', { name: 'Edit everything' }).click();
  t.equal(await page.getByLabel('command (required)').inputValue(), command, 'the form shows the entry');
  await page.getByRole('textbox', { name: 'env', exact: true }).fill('GREETING=${HOME}');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Server everything changed.').waitFor();
  t.same(writtenServers(await readFile(file, 'utf8')).everything?.env, { GREETING: '${HOME}' }, 'the ${VAR} reference is written as typed');

  await page.getByRole('button', { name: 'Edit everything' }).click();
  await page.getByLabel('disabled').selectOption('true');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Server everything changed.').waitFor();
  await waitFor('everything to be disabled in the list', async () => (await rowOf(page, 'everything').locator('.status').textContent()) === 'disabled', 30_000);
  t.equal(hub.children.get('everything'), undefined, 'a disabled server is not served');

  await page.getByRole('button', { name: 'Remove everything' }).click();
  await page.getByText('Server everything removed.').waitFor();
  t.equal(await rowOf(page, 'everything').count(), 0, 'the row is gone');
  t.equal(await readFile(file, 'utf8'), original, 'the hand-written file is back byte for byte: only the entry saved ever changed');
  t.same(problems, [], 'no script error and no CSP violation on the way');
});

// Issue 52, item 2: the playground is a form generated from each tool's input schema.
t.test("the playground: a form from each tool's input schema; images, resource links and structured content shown; a JSON box where the schema names no property", async (t) => {
  const { url, hub } = await startConsoleHub(t, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { everything: { ...everythingEntry(), keepAlive: true } } }));
  await hub.children.get('everything')?.ensureUp();
  const browser = await sharedChromium(t);
  const problems: string[] = [];
  const page = await consolePage(browser, url, problems);
  await page.getByRole('button', { name: 'Tools of everything' }).click();
  const tool = (name: string) => page.getByRole('article', { name: `Tool ${name}` });

  const sum = tool('get-sum');
  await sum.getByText('Try it').click();
  await sum.getByLabel('a (required)').fill('2');
  await sum.getByLabel('b (required)').fill('3.5');
  await sum.getByRole('button', { name: 'Call get-sum' }).click();
  await sum.locator('.call-result .part-text').waitFor();
  t.equal(await sum.locator('.call-result .part-text').textContent(), 'The sum of 2 and 3.5 is 5.5.', 'two number fields, sent as numbers');

  const links = tool('get-resource-links');
  await links.getByText('Try it').click();
  t.equal(await links.getByLabel('count').inputValue(), '3', "a field starts at the schema's default");
  await links.getByLabel('count').fill('2');
  await links.getByRole('button', { name: 'Call get-resource-links' }).click();
  await links.locator('.call-result .part-link').first().waitFor();
  t.equal(await links.locator('.call-result .part-link').count(), 2, 'resource links are shown as links');

  const structured = tool('get-structured-content');
  await structured.getByText('Try it').click();
  t.same(await structured.getByLabel('location (required)').locator('option').allTextContents(), ['(not set)', 'New York', 'Chicago', 'Los Angeles'], 'an enum is a choice');
  await structured.getByLabel('location (required)').selectOption('Chicago');
  await structured.getByRole('button', { name: 'Call get-structured-content' }).click();
  const summary = structured.locator('.call-result summary', { hasText: 'Structured content' });
  await summary.waitFor();
  await summary.click();
  t.match(await structured.locator('.call-result details pre').textContent(), /"temperature"/, 'the structured content is shown');

  const image = tool('get-tiny-image');
  await image.getByText('Try it').click();
  const box = image.getByLabel('Arguments of get-tiny-image (JSON)');
  t.equal(await box.inputValue(), '{}', 'a schema without properties gets a JSON box');
  await box.fill('[1, 2]');
  await image.getByRole('button', { name: 'Call get-tiny-image' }).click();
  t.match(await image.locator('.field-error').textContent(), /Not sent: the arguments are a JSON object/, 'what is wrong, beside the box');
  t.equal(await box.getAttribute('aria-invalid'), 'true');
  t.equal(await image.locator('.call-result').textContent(), '', 'and nothing was called');
  await box.fill('{}');
  await image.getByRole('button', { name: 'Call get-tiny-image' }).click();
  await image.locator('.call-result img').waitFor();
  t.match(await image.locator('.call-result img').getAttribute('src'), /^data:image\/png;base64,/, 'the image is shown');
  t.equal(await box.getAttribute('aria-invalid'), 'false', 'the error is gone');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation with the playgrounds open');
  t.same(problems, [], 'no script error and nothing the CSP refused (the image is a data: URL the CSP allows)');
});

t.test('a save from a second browser over a changed file is a conflict with the difference; nothing is lost', async (t) => {
  const { url, file } = await startConsoleHub(t, handWritten());
  const browser = await sharedChromium(t);
  const first = await consolePage(browser, url);
  const second = await consolePage(browser, url);
  await first.getByRole('button', { name: 'Edit zeta' }).click();
  await second.getByRole('button', { name: 'Edit zeta' }).click();
  await first.getByLabel('args').fill('first');
  await first.getByRole('button', { name: 'Save', exact: true }).click();
  // Issue 52, item 2: a save tests the entry first; /bin/true exits at once, so the test
  // fails, shows why, and nothing is written until "Save anyway".
  await first.locator('#test-failed').waitFor({ timeout: 60_000 });
  t.match(await first.locator('#test-failed .test-error').textContent(), /\S/, 'the failed test says why');
  t.equal(await readFile(file, 'utf8'), handWritten(), 'a failed test writes nothing');
  await first.getByRole('button', { name: 'Save anyway' }).click();
  await first.getByText('Server zeta changed.').waitFor();
  await second.getByLabel('args').fill('second');
  await second.getByRole('button', { name: 'Save', exact: true }).click();
  await second.getByRole('button', { name: 'Save anyway' }).click();
  const alert = second.locator('#conflict [role=alert]');
  await alert.waitFor();
  t.match(await alert.textContent(), /changed since this page read it/);
  const diff = (await second.getByLabel('What changed in the file').textContent()) ?? '';
  t.match(diff, /\+\s*"first"/, 'the difference shows the first browser’s change');
  t.same(writtenServers(await readFile(file, 'utf8')).zeta?.args, ['first'], 'the first save is kept');
});

t.test('a config the hub cannot write: the page says why and shows the JSON to paste', async (t) => {
  const { url, file, folder } = await startConsoleHub(t, handWritten());
  t.teardown(await makeUnwritable(file, folder));
  const browser = await sharedChromium(t);
  const page = await consolePage(browser, url);
  t.match(await page.locator('#read-only-reason').textContent(), /Read-only: the hub's user cannot write/);
  await page.getByRole('button', { name: 'Add a server' }).click();
  await page.getByLabel('Name (required)').fill('beta');
  await page.getByLabel('command (required)').fill('/bin/true');
  await page.getByRole('button', { name: 'Show the JSON to paste' }).click();
  t.same(JSON.parse((await page.locator('#paste-json').textContent()) ?? ''), { beta: { command: '/bin/true', type: 'stdio' } });
  t.equal(await readFile(file, 'utf8'), handWritten(), 'nothing was written');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation in read-only mode');
});

t.test('the add form with the keyboard alone', async (t) => {
  const { url, file } = await startConsoleHub(t, handWritten());
  const browser = await sharedChromium(t);
  const page = await consolePage(browser, url);
  const focused = () => page.evaluate<string>("document.activeElement?.id || document.activeElement?.textContent || ''");
  // Tab from the top of the page to the Add button, then Enter.
  for (let step = 0; step < 40 && (await focused()) !== 'add-server'; step++) await page.keyboard.press('Tab');
  t.equal(await focused(), 'add-server', 'the Add button is reached with Tab');
  await page.keyboard.press('Enter');
  t.equal(await focused(), 'field-name', 'the form opens with the focus on its first field');
  await page.keyboard.type('typed');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'field-type');
  await page.keyboard.press('Tab');
  t.equal(await focused(), 'field-command');
  await page.keyboard.type('/bin/true');
  for (let step = 0; step < 40 && (await focused()) !== 'save-entry'; step++) await page.keyboard.press('Tab');
  t.equal(await focused(), 'save-entry', 'Save is reached with Tab');
  await page.keyboard.press('Enter');
  // /bin/true does not stay up: the save's test fails, the focus on the failure; "Save anyway" is next.
  await page.locator('#test-failed').waitFor({ timeout: 60_000 });
  t.equal(await focused(), 'test-failed-title', 'the failed test takes the focus');
  for (let step = 0; step < 5 && (await focused()) !== 'save-anyway'; step++) await page.keyboard.press('Tab');
  t.equal(await focused(), 'save-anyway', '"Save anyway" is reached with Tab');
  await page.keyboard.press('Enter');
  await page.getByText('Server typed added.').waitFor();
  t.same(writtenServers(await readFile(file, 'utf8')).typed, { command: '/bin/true', type: 'stdio' });

  // A field error is announced and takes the focus.
  await page.getByRole('button', { name: 'Add a server' }).click();
  await page.keyboard.type('bad name');
  await page.getByLabel('command (required)').fill('/bin/true');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.locator('#field-name-error:not(:empty)').waitFor();
  t.match(await page.locator('#field-name-error').textContent(), /the name must be 1 to 64 letters/, 'in hub check’s words, under the field');
  t.equal(await focused(), 'field-name', 'the field with the error has the focus');
  t.equal(await page.getByLabel('Name (required)').getAttribute('aria-invalid'), 'true');
});

t.test('a hostile child’s markup in tool names, descriptions, prompts, errors and stderr is shown as text', async (t) => {
  const { url } = await startConsoleHub(t, handWritten());
  const browser = await sharedChromium(t);
  const problems: string[] = [];
  const page = await consolePage(browser, url, problems);
  await page.getByRole('button', { name: 'Add a server' }).click();
  await page.getByLabel('Name (required)').fill('hostile');
  await page.getByLabel('command (required)').fill(process.execPath);
  await page.getByLabel('args').fill(HOSTILE);
  await page.getByRole('button', { name: 'Test' }).click();
  await page.locator('#test-passed').waitFor({ timeout: 60_000 });
  t.match(await page.locator('#test-passed').textContent(), /echo<img src=x onerror="window.__pwned=1"><script>/, 'the tool name is shown as the text it is');
  t.equal(await page.locator('#test-passed img, #test-passed script').count(), 0, 'no element was made of it');

  await page.getByRole('textbox', { name: 'env', exact: true }).fill('HOSTILE_FAIL=1');
  await page.getByRole('button', { name: 'Test' }).click();
  await page.locator('#test-failed').waitFor({ timeout: 60_000 });
  t.match(await page.getByLabel('The end of its stderr').textContent(), /<img src=x onerror/, 'the stderr is shown as text');
  t.equal(await page.locator('#test-failed img, #test-failed script').count(), 0);

  // Saved and running, its tools are listed from the hub's knowledge of them: as text too.
  await page.getByRole('textbox', { name: 'env', exact: true }).fill('');
  await page.getByLabel('keepAlive').selectOption('true');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Server hostile added.').waitFor();
  await waitFor('hostile to be up in the list', async () => (await rowOf(page, 'hostile').locator('.status').textContent()) === 'up', 60_000);
  await page.getByRole('button', { name: 'Tools of hostile' }).click();
  const tool = page.locator('#tool-list article').first();
  await tool.waitFor();
  t.equal(await tool.locator('h3 code').textContent(), 'echo<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>', 'the tool list shows the name as text');
  t.match(await tool.locator('.description').textContent(), /^Says <img/, 'and the description');
  await tool.getByText('Try it').click();
  await tool.getByRole('button', { name: /^Call echo/ }).click();
  await tool.locator('.call-result .part-text').waitFor();
  t.match(await tool.locator('.call-result .part-text').textContent(), /^<img src=x onerror/, 'a result carrying markup is shown as text');
  t.equal(await page.locator('#tool-list img, #tool-list script').count(), 0);
  t.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined, 'nothing ran');
  t.same(problems, [], 'no script error');
});

// Issue 52, item 1: /status and /tool-approvals are views of the console (overview, approvals).
t.test('the overview and the approvals views: axe, the keyboard, the strict CSP, the old URLs', async (t) => {
  const entry = JSON.stringify({ ...everythingEntry(), pinTools: true });
  const { url, hub } = await startConsoleHub(t, `{ "plugins": { "oauth-as": false, "map-tools": false, "tool-pinning": {} }, "mcpServers": { "pinned": ${entry} } }`);
  await hub.children.get('pinned')?.ensureUp();
  const browser = await sharedChromium(t);
  const problems: string[] = [];
  const page = await consolePage(browser, url, problems);

  await page.goto(`${url}/tool-approvals`);
  t.equal(new URL(page.url()).pathname, '/console/approvals', '/tool-approvals leads to the approvals view');
  const approveAll = page.locator('button[data-approve-all="pinned"]');
  await waitFor('the waiting tools to be shown', async () => (await page.reload(), await page.locator('#approvals h3').first().waitFor(), (await approveAll.count()) === 1));
  const waiting = await page.locator('.change').count();
  t.ok(waiting > 1, `${waiting} definitions wait`);
  t.equal(await approveAll.textContent(), `Approve all ${waiting} waiting of pinned`);
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation on the approvals');
  await approveAll.focus();
  await page.keyboard.press('Enter');
  await page.locator('#notice', { hasText: 'Approved' }).waitFor();
  t.equal(await page.textContent('#notice'), `Approved ${waiting} definitions of server pinned.`, 'approved with the keyboard alone');
  t.match(await page.textContent('#approvals'), 'Nothing waits for approval.');
  t.equal(await page.evaluate('document.activeElement.id'), 'approvals-title', "the focus goes to the view's heading, not lost with the button");

  await page.goto(`${url}/status?from=test`);
  t.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/console/overview?from=test', '/status leads to the overview, the query kept');
  await page.locator('#server-pinned .actions button').first().waitFor();
  await page.locator('#hub-overview dl').waitFor();
  const figures = Object.fromEntries(
    await page
      .locator('#hub-overview dt')
      .evaluateAll((terms: { textContent: string | null; nextElementSibling: { textContent: string | null } | null }[]) =>
        terms.map((term) => [term.textContent, term.nextElementSibling?.textContent ?? '']),
      ),
  ) as Record<string, string>;
  t.equal(figures['Version'], hub.version, 'the hub now: its version');
  t.match(figures['MCP revisions'], /2026-07-28 \(callers and servers\)/, 'the revisions and to whom');
  t.match(figures['Plugins on'], /console/, 'the plugins on');
  t.notMatch(figures['Plugins on'], /oauth-as/, 'not one the config turns off');
  t.match(figures['Memory'], /^\d+\.\d MiB resident, heap /, 'the memory');
  t.ok(figures['Calls in the last minute'] !== undefined && figures['Error rate (last minute)'] !== undefined, 'calls a minute and the error rate');
  t.same(await axeViolations(page), [], 'axe: no serious or critical violation on the overview');
  await docsScreenshot(page, 'console-overview.png', true);
  await page.locator('#server-pinned button[data-action=sleep]').focus();
  await page.keyboard.press('Enter');
  await page.locator('#notice', { hasText: 'put to sleep' }).waitFor();
  t.equal(hub.children.get('pinned')?.status, 'sleeping', 'put to sleep with the keyboard alone');
  await page.locator('#server-pinned button[data-action=wake]').waitFor();
  t.equal(await page.evaluate('document.activeElement.dataset.action'), 'wake', "the focus stays on the server's buttons");

  // The servers view offers the same actions.
  await page.goto(`${url}/console`);
  await page.locator('#server-list table').waitFor();
  await page.click('tr[id="server-pinned"] button[data-action=wake]');
  await page.locator('#notice', { hasText: 'woken' }).waitFor();
  t.equal(hub.children.get('pinned')?.status, 'up', 'woken from the servers view');
  t.same(problems, [], 'no script error and nothing the CSP refused');
});

// Issue 52, item 2: "Duplicate" an entry: a copy under a new name, the form prefilled; a taken name is never replaced.
t.test('duplicate an entry: the form over a copy, saved under a new name; a taken name is refused', async (t) => {
  const { url, file } = await startConsoleHub(t, handWritten());
  const browser = await sharedChromium(t);
  const problems: string[] = [];
  const page = await consolePage(browser, url, problems);
  await page.getByRole('button', { name: 'Duplicate zeta' }).click();
  t.equal(await page.textContent('#editor-title'), 'Duplicate zeta');
  t.equal(await page.inputValue('#field-name'), 'zeta-copy', 'a free name is proposed');
  t.equal(await page.getAttribute('#field-name', 'readonly'), null, 'and can be changed');
  t.equal(await page.inputValue('#field-command'), '/bin/true', "the form is the entry's");
  t.equal(await page.inputValue('#field-args'), 'a\nb');
  const before = await readFile(file, 'utf8');

  await page.fill('#field-name', 'alpha');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Save anyway' }).click();
  await page.locator('#field-name-error:not(:empty)').waitFor();
  t.match(await page.textContent('#field-name-error'), 'A server named "alpha" is in the config file already', 'a taken name is refused at its field');
  t.equal(await page.getAttribute('#field-name', 'aria-invalid'), 'true');
  t.equal(await readFile(file, 'utf8'), before, 'nothing was written: alpha is not replaced');

  await page.fill('#field-name', 'zeta-copy');
  await page.fill('#field-args', 'a\nb\nc');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Save anyway' }).click();
  await page.locator('#notice', { hasText: 'zeta-copy' }).waitFor();
  t.equal(await page.textContent('#notice'), 'Server zeta-copy added.');
  const written = JSON.parse(await readFile(file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
  t.same(written.mcpServers['zeta-copy'], { type: 'stdio', command: '/bin/true', args: ['a', 'b', 'c'] }, 'the copy, with what was changed');
  t.same(written.mcpServers.zeta, { command: '/bin/true', args: ['a', 'b'] }, 'the original is untouched');
  t.ok((await readFile(file, 'utf8')).includes('"zeta":   { "command": "/bin/true",   "args": ["a",  "b"] },'), 'its text byte for byte');
  await page.getByRole('button', { name: 'Duplicate zeta', exact: true }).click();
  t.equal(await page.inputValue('#field-name'), 'zeta-copy-2', 'the next copy gets the next free name');
  // Chromium logs the refused save's 409 as a failed load; nothing else may be there.
  t.same(
    problems.filter((problem) => !problem.includes('status of 409')),
    [],
    'no script error and nothing the CSP refused',
  );
});

// Issue 52: every field error of an entry at once, each beside its field, not only the first the checker found.
t.test('two wrong fields: both errors show at once, each beside its field and linked to it', async (t) => {
  const { url, file } = await startConsoleHub(t, handWritten());
  const browser = await sharedChromium(t);
  const problems: string[] = [];
  const page = await consolePage(browser, url, problems);
  const before = await readFile(file, 'utf8');
  await page.getByRole('button', { name: 'Duplicate zeta' }).click();
  await page.fill('#field-timeout', '0');
  await page.fill('#field-startTimeoutMs', '0');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.locator('#field-startTimeoutMs-error:not(:empty)').waitFor();
  for (const key of ['timeout', 'startTimeoutMs']) {
    t.match(await page.textContent(`#field-${key}-error`), new RegExp(`server "zeta-copy": key "${key}": expected a value that must be >= 1$`), `${key}: hub check’s words, under the field`);
    t.equal(await page.getAttribute(`#field-${key}`, 'aria-invalid'), 'true', `${key} is marked invalid`);
    t.match(await page.getAttribute(`#field-${key}`, 'aria-describedby'), `field-${key}-error`, `${key} is described by its error`);
  }
  t.equal(
    await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id),
    'field-timeout',
    'the first field with an error has the focus',
  );
  t.equal(await readFile(file, 'utf8'), before, 'nothing was written');
  t.same(
    problems.filter((problem) => !problem.includes('status of 422')),
    [],
    'no script error and nothing the CSP refused',
  );
});

t.test('a secret written literally in mcp.json is not on the page; saving another field keeps it in the file', async (t) => {
  const apiKey = `sk-${randomBytes(12).toString('hex')}`;
  const line = `"keyed": { "command": "/bin/true", "disabled": true, "env": { "API_KEY": "${apiKey}", "REF": "\${REF_TOKEN}" } },`;
  const { url, file } = await startConsoleHub(t, handWritten(`\n\t\t${line}`));
  const browser = await sharedChromium(t);
  const problems: string[] = [];
  const page = await consolePage(browser, url, problems);
  await page.getByRole('button', { name: 'Edit keyed' }).click();
  t.equal(await page.inputValue('#field-env'), 'API_KEY=[secret kept]\nREF=${REF_TOKEN}', 'the marker in its place; the ${VAR} reference as it is');
  t.match(await page.textContent('#field-env-secrets'), 'env.API_KEY: written literally in mcp.json: move it to ${VAR} or a _FILE path', 'the field says where it belongs');
  t.match(await page.getAttribute('#field-env', 'aria-describedby'), 'field-env-secrets', 'read with the field');
  const values = (await page.$$eval('input, textarea, select', (controls) => controls.map((control) => (control as unknown as { value: string }).value))).join('\n');
  t.notOk((await page.content()).includes(apiKey) || values.includes(apiKey), 'the value is nowhere on the page, nor in a control');
  await page.fill('#field-args', '--changed');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.locator('#notice', { hasText: 'keyed' }).waitFor();
  const written = await readFile(file, 'utf8');
  t.ok(written.includes(`"env": { "API_KEY": "${apiKey}", "REF": "\${REF_TOKEN}" }`), 'the secret is kept in the file byte for byte');
  t.same(writtenServers(written).keyed?.args, ['--changed'], 'and the change saved');
  t.same(problems, [], 'no script error and nothing the CSP refused');
});
