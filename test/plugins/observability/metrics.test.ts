import t from 'tap';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { everythingEntry, sample } from './helpers.js';

const metricsOf = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${url}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

t.test('three echo calls on /everything/mcp and one through /hub call_tool count 4 on /metrics', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { everything: everythingEntry() }, plugins: { 'map-tools': false } } });
  const modern = await connectClient(t, `${url}/everything/mcp`, '2026-07-28');
  const legacy = await connectClient(t, `${url}/everything/mcp`, '2025-11-25');
  for (const client of [modern, modern, legacy]) {
    const result = await client.callTool({ name: 'echo', arguments: { message: 'hello' } });
    t.notOk(result.isError, 'the echo call succeeded');
  }
  const hubClient = await connectClient(t, `${url}/hub`, '2026-07-28');
  const viaHub = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'everything', tool: 'echo', arguments: { message: 'via hub' } } });
  t.notOk(viaHub.isError, 'call_tool succeeded');
  const failed = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'everything', tool: 'echo', arguments: { message: 42 } } });

  const { status, type, text } = await metricsOf(url);
  t.equal(status, 200, '/metrics is open to a scraper on this machine');
  t.match(type, /^text\/plain; version=0\.0\.4/, 'the Prometheus text format');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'everything', tool: 'echo', outcome: 'ok' }), 4, 'four successful echo calls');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'everything', tool: 'echo', outcome: failed.isError ? 'tool_error' : 'protocol_error' }), 1, 'the call with a bad argument is counted by its outcome');
  t.equal(sample(text, 'hub_tool_call_duration_seconds_count', { server: 'everything' }), 5, 'every call is in the duration histogram');
  t.equal(sample(text, 'hub_mcp_requests_total', { endpoint: 'everything', method: 'tools/call', revision: '2026-07-28' }), 2);
  t.equal(sample(text, 'hub_mcp_requests_total', { endpoint: 'everything', method: 'tools/call', revision: '2025-11-25' }), 1);
  t.equal(sample(text, 'hub_mcp_requests_total', { endpoint: 'hub', method: 'tools/call', revision: '2026-07-28' }), 2);
  t.ok((sample(text, 'hub_http_requests_total', { route: '/:server/mcp', status: '200' }) ?? 0) >= 3, 'HTTP requests by route pattern, never by URL');
  t.equal(sample(text, 'hub_child_status', { server: 'everything', status: 'up' }), 1, 'the server is up');
  t.equal(sample(text, 'hub_child_status', { server: 'everything', status: 'sleeping' }), 0);
  t.equal(sample(text, 'hub_child_starts_total', { server: 'everything', reason: 'wake' }), 1, 'one start: the wake of the first call');
  t.equal(sample(text, 'hub_child_wake_seconds_count', { server: 'everything' }), 1, 'the wake is timed');
  t.notOk(text.includes('hub_child_restarts_total{'), 'no restart');
  t.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined, 'the default process metrics are there');
  t.ok(sample(text, 'nodejs_eventloop_lag_seconds') !== undefined, 'event-loop lag is there');
  t.notOk(text.includes('hello'), 'no argument reaches a label');
});

t.test('an unknown method or revision never becomes a label value', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { everything: everythingEntry() }, plugins: { 'map-tools': false } } });
  await fetch(`${url}/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': 'made-up-revision' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'client/invented-method', params: {} }),
  }).then((response) => response.text());
  const { text } = await metricsOf(url);
  t.equal(sample(text, 'hub_mcp_requests_total', { endpoint: 'hub', method: 'other', revision: 'unknown' }), 1);
  t.notOk(/invented|made-up/.test(text), 'nothing the client made up is a label');
});

t.test('for anyone but a scraper on this machine, /metrics takes METRICS_TOKEN or an API token, and counts refusals', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: { plugins: { 'oauth-as': true, 'map-tools': false } },
    env: { HOST: '0.0.0.0', HUB_PASSWORD: 'pw', METRICS_TOKEN: 'scrape-secret-1234' },
  });
  // A reverse proxy on this host: the peer is loopback, the request someone else's.
  const proxied = { 'x-forwarded-for': '203.0.113.9' };
  const refused = await metricsOf(url, proxied);
  t.equal(refused.status, 401, 'no token: refused');
  t.notOk(refused.text.includes('hub_'), 'nothing is shown');
  t.equal((await metricsOf(url, { ...proxied, authorization: 'Bearer wrong-token' })).status, 401, 'a wrong token: refused');
  const scraped = await metricsOf(url, { ...proxied, authorization: 'Bearer scrape-secret-1234' });
  t.equal(scraped.status, 200, 'METRICS_TOKEN: allowed');
  const minted = await new ApiTokens(collections(hub.store), hub.settings.baseUrl).mint('prometheus', 600);
  const withApiToken = await metricsOf(url, { ...proxied, authorization: `Bearer ${minted.token}` });
  t.equal(withApiToken.status, 200, 'an API token: allowed');
  t.ok((sample(withApiToken.text, 'hub_auth_failures_total', { reason: 'invalid_token' }) ?? 0) >= 1, 'the wrong token is an auth failure');
  t.equal(sample(withApiToken.text, 'hub_http_requests_total', { route: '/metrics', status: '401' }), 2, 'the refusals are counted by route');
});

t.test('a loopback hub behind a reverse proxy on the same host does not show /metrics to the proxy\'s clients', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } } });
  const forwarded: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }, { 'x-real-ip': '203.0.113.9' }, { via: '1.1 proxy' }];
  for (const header of forwarded) {
    const answer = await metricsOf(url, header);
    t.equal(answer.status, 401, `refused with ${Object.keys(header)[0]}`);
    t.notOk(answer.text.includes('hub_'), 'no server or tool name shown');
  }
  t.equal((await metricsOf(url)).status, 200, 'a scraper on this host without forwarding headers is served');
});

t.test('METRICS_PUBLIC=true opens /metrics to all, unless METRICS_TOKEN is set', async (t) => {
  const open = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { METRICS_PUBLIC: 'true' } });
  t.equal((await metricsOf(open.url, { 'x-forwarded-for': '203.0.113.9' })).status, 200);
  const tokened = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { METRICS_PUBLIC: 'true', METRICS_TOKEN: 'scrape-secret-1234' } });
  t.equal((await metricsOf(tokened.url, { 'x-forwarded-for': '203.0.113.9' })).status, 401, 'the token wins');
});

t.test('with the plugin off, /metrics is not served and nothing listens', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { observability: false, 'map-tools': false } } });
  t.equal((await fetch(`${url}/metrics`)).status, 404);
});
