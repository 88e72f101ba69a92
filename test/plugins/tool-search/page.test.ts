import t from 'tap';
import { corpus, listingServer } from './corpus.js';
import { fixtureEntry, starts, tempDir, waitFor } from '../../core/children/helpers.js';
import { sharedChromium } from '../../helpers/chromium.js';
import { startTestHub } from '../../helpers/hub.js';

const PASSWORD = 'correct horse battery';

/*
 * Issue 39: with tool-search on, the status page has a search box over every server's
 * tools, in real Chromium (no scripts: the pages have none); a never-started server is
 * named and not started. Without the plugin, there is no box.
 */
t.test('the operator searches every tool from the status page', async (t) => {
  const folder = await tempDir(t);
  const maps = corpus().find((fixture) => fixture.server === 'google-maps');
  if (!maps) throw new Error('no google-maps fixture');
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { idle: { ...fixtureEntry('crashy', `${folder}/idle`), hub: false } }, plugins: { 'map-tools': false, 'tool-search': true } },
    env: { HUB_PASSWORD: PASSWORD },
    setup: (plugins) => void plugins.servers.addInProcess('maps', listingServer(maps)),
  });
  await waitFor('the maps server to be up', () => hub.children.get('maps')?.toolsKnown === true);

  const browser = await sharedChromium(t);
  const page = await browser.newPage({ javaScriptEnabled: false });
  await page.goto(`${url}/status`);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  const box = page.getByRole('searchbox', { name: 'Search tools' });
  t.equal(await box.count(), 1, "the console's overview (where /status leads) has a labelled search box");
  t.ok(await page.getByRole('link', { name: 'Tool search' }).count(), 'and links to the search page');
  await box.fill('elevation of a place');
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  t.match(page.url(), /\/tool-search\?q=elevation\+of\+a\+place$/, 'the search is a GET, so it can be bookmarked');
  const firstRow = page.getByRole('table', { name: 'Tools found' }).locator('tbody tr').first();
  t.equal(await firstRow.locator('td').nth(1).textContent(), 'maps_elevation', 'the best hit comes first');
  t.equal(await firstRow.locator('td').first().textContent(), 'maps');
  t.match(await page.content(), /Not searched[^]*<li>idle<\/li>/, 'the server never started is named');
  t.equal(await page.getByRole('searchbox', { name: 'Search tools' }).inputValue(), 'elevation of a place', 'the box keeps the query');
  t.equal(starts(`${folder}/idle`).length, 0, 'and nothing was started');

  await page.goto(`${url}/tool-search?q=${'x'.repeat(301)}`);
  t.match(await page.content(), /longer than 300 characters/, 'a query too long is refused with a page');
  await page.goto(`${url}/tool-search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E`);
  t.notOk((await page.content()).includes('<script>alert(1)</script>'), 'the query is escaped');

  const anonymous = await fetch(`${url}/tool-search?q=elevation`);
  t.notOk((await anonymous.text()).includes('maps_elevation'), 'without a session: the login form, no tools');
});

t.test('without tool-search the status page has no search box', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  const browser = await sharedChromium(t);
  const page = await browser.newPage({ javaScriptEnabled: false });
  await page.goto(`${url}/status`);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  t.equal(await page.getByRole('heading', { name: 'Hub console' }).count(), 1, "logged in to the console's overview");
  t.equal(await page.getByRole('searchbox').count(), 0, 'no search box');
  t.equal((await fetch(`${url}/tool-search`)).status, 404, 'and no search page');
});
