import t from 'tap';
import { startTestHub } from '../helpers/hub.js';

// Issue 44, S4: what is shown only to this machine is not shown on a loopback peer's word
// alone when the operator asked for more.

t.test('with METRICS_TOKEN set, /metrics wants it from loopback too', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { METRICS_TOKEN: 'scrape-secret-1234' } });
  const bare = await fetch(`${url}/metrics`);
  t.equal(bare.status, 401, 'a loopback scraper without the token is refused');
  t.notOk((await bare.text()).includes('hub_'), 'and shown nothing');
  const scraped = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer scrape-secret-1234' } });
  t.equal(scraped.status, 200, 'with the token it is served');
  t.match(await scraped.text(), /hub_/);
});

t.test('/health gives no reasons to a request that says it was forwarded, when TRUSTED_PROXIES is unset', async (t) => {
  const { url, hub } = await startTestHub(t, { config: { plugins: { 'map-tools': false }, mcpServers: { broken: { command: 'no-such-command-at-all' } } } });
  await hub.children
    .get('broken')
    ?.ensureUp()
    .catch(() => undefined);
  for (const header of [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }, { 'x-real-ip': '203.0.113.9' }]) {
    const answer = (await (await fetch(`${url}/health`, { headers: header })).json()) as Record<string, unknown>;
    t.same(answer, { status: 'degraded', servers: { broken: 'down' } }, `no reasons with ${Object.keys(header)[0]}`);
  }
  const local = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
  t.match(local, { reasons: { broken: /no-such-command-at-all/ } }, 'a caller on this machine still sees them');
});
