import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';
import t from 'tap';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';
import { connectClient } from '../../helpers/clients.js';
import { startStandaloneHub, startTestHub } from '../../helpers/hub.js';
import { echoMetaEntry, everythingEntry, operatorSession, sample, total } from './helpers.js';

const metricsOf = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${url}/metrics`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

/** Every bucket bound of the hub's duration histograms, in the exposition's own spelling. */
const BOUNDS = ['0.0001', '0.00025', '0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '30', '60', '120', '+Inf'];

t.test('three echo calls on /everything/mcp and two through /hub call_tool are counted by server, tool and outcome', async (t) => {
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
  const failedOutcome = failed.isError ? 'tool_error' : 'protocol_error';

  const { status, type, text } = await metricsOf(url);
  t.equal(status, 200, '/metrics is open to a scraper on this machine');
  t.match(type, /^text\/plain; version=0\.0\.4/, 'the Prometheus text format');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'everything', tool: 'echo', outcome: 'ok' }), 4, 'four successful echo calls');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'everything', tool: 'echo', outcome: failedOutcome }), 1, 'the call with a bad argument is counted by its outcome');
  t.equal(sample(text, 'hub_tool_call_duration_seconds_count', { server: 'everything', tool: 'echo', outcome: 'ok' }), 4, 'durations by server, tool and outcome');
  t.equal(sample(text, 'hub_tool_call_duration_seconds_count', { server: 'everything', tool: 'echo', outcome: failedOutcome }), 1);
  t.same(
    BOUNDS.map((le) => sample(text, 'hub_tool_call_duration_seconds_bucket', { server: 'everything', tool: 'echo', outcome: 'ok', le }) !== undefined),
    BOUNDS.map(() => true),
    'buckets from 100 µs to 120 s',
  );
  t.equal(sample(text, 'hub_mcp_requests_total', { endpoint: 'everything', method: 'tools/call', revision: '2026-07-28', status: '200' }), 2, 'requests by endpoint, method, revision and status');
  t.equal(sample(text, 'hub_mcp_requests_total', { endpoint: 'everything', method: 'tools/call', revision: '2025-11-25', status: '200' }), 1);
  t.equal(sample(text, 'hub_mcp_requests_total', { endpoint: 'hub', method: 'tools/call', revision: '2026-07-28', status: '200' }), 2);
  t.ok((sample(text, 'hub_mcp_requests_total', { endpoint: 'everything', method: 'other', revision: '2025-11-25', status: '405' }) ?? 0) >= 1, "a 2025 client's GET is answered 405, and counted so");
  t.ok((sample(text, 'hub_http_requests_total', { route: '/:server/mcp', status: '200' }) ?? 0) >= 3, 'HTTP requests by route pattern, never by URL');
  t.equal(sample(text, 'hub_child_status', { server: 'everything', status: 'up' }), 1, 'the server is up');
  t.equal(sample(text, 'hub_child_status', { server: 'everything', status: 'sleeping' }), 0);
  t.equal(sample(text, 'hub_child_starts_total', { server: 'everything', reason: 'wake' }), 1, 'one start: the wake of the first use');
  t.equal(sample(text, 'hub_child_wake_seconds_count', { server: 'everything' }), 1, 'the wake is timed');
  t.equal(sample(text, 'hub_child_restarts_total', { server: 'everything' }), 0, 'no restart, and the series is there to say so');
  t.equal(sample(text, 'hub_child_crashes_total', { server: 'everything' }), 0);
  t.equal(total(text, 'mcp_server_operation_duration_seconds_count', { mcp_method_name: 'tools/call' }), 5, "OpenTelemetry's mcp.server.operation.duration, one per tools/call served");
  t.equal(
    sample(text, 'mcp_server_operation_duration_seconds_count', { mcp_method_name: 'tools/call', mcp_protocol_version: '2026-07-28', gen_ai_tool_name: 'call_tool' }),
    2,
    'by tool: a meta-tool of /hub',
  );
  t.equal(
    total(text, 'mcp_client_operation_duration_seconds_count', { mcp_method_name: 'tools/call', gen_ai_tool_name: 'echo', network_transport: 'pipe' }),
    5,
    'and mcp.client.operation.duration, one per call sent to a child',
  );
  t.equal(sample(text, 'hub_build_info', { version: '0.1.0', node_version: process.version, revisions: '2025-11-25,2026-07-28' }), 1, 'the build, with the revisions served');
  // Issue 43, item 10.
  t.equal(total(text, 'mcp_client_operation_duration_seconds_count', { server: 'everything', mcp_method_name: 'tools/call' }), 5, 'the client histogram names the server');
  t.equal(sample(text, 'hub_tool_calls_in_flight'), 0, 'every call that started has ended');
  t.ok((sample(text, 'hub_open_connections') ?? 0) >= 1, "the clients' open connections are counted");
  t.ok(total(text, 'hub_mcp_request_duration_seconds_count', { endpoint: 'everything' }) >= 1, 'requests other than tools/call timed by endpoint and method');
  t.ok(total(text, 'hub_mcp_request_duration_seconds_count', { endpoint: 'hub' }) >= 1, 'on /hub too');
  t.equal(total(text, 'hub_mcp_request_duration_seconds_count', { method: 'tools/call' }), 0, 'tools/call is left to the tool call histograms');
  t.ok((sample(text, 'hub_config_reload_last_success_timestamp_seconds') ?? 0) > 1_600_000_000, 'the config loaded at the start counts as a success');
  t.equal(sample(text, 'hub_config_reload_failures_total'), 0);
  t.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined, 'the default process metrics are there');
  t.ok(sample(text, 'nodejs_eventloop_lag_seconds') !== undefined, 'event-loop lag is there');
  t.notOk(/^nodejs_\w+_total[{ ]/m.test(text), 'no gauge ends in _total');
  t.notOk(text.includes('hello'), 'no argument reaches a label');
});

t.test('promtool check metrics passes', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { everything: everythingEntry() }, plugins: { 'map-tools': false } } });
  const client = await connectClient(t, `${url}/everything/mcp`, '2025-11-25');
  await client.callTool({ name: 'echo', arguments: { message: 'hello' } });
  // The child answers a name it does not list (issue 28); the hub counts the call as an unknown tool's.
  await client.callTool({ name: 'nope', arguments: {} }).catch(() => undefined);
  const { text } = await metricsOf(url);
  const checked = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  t.equal(checked.error, undefined, 'promtool runs (Debian package prometheus)');
  t.equal(checked.status, 0, `promtool finds nothing to say: ${checked.stdout}${checked.stderr}`);
});

/**
 * Issue 27, defect 2: a series appeared only at its first increment, so `increase()` read
 * 0 after the first burst. The series of the configured servers, and of their tools from
 * the snapshot, are there at 0 before any call.
 */
t.test('series for configured servers and their snapshot tools are there at 0 before the first call', async (t) => {
  const first = await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } } });
  const client = await connectClient(t, `${first.url}/meta/mcp`, '2026-07-28');
  await client.callTool({ name: 'echo', arguments: {} });
  await first.app.close();

  // The same data folder: the snapshot says which tools the sleeping server has.
  const { url } = await startTestHub(t, {
    config: { mcpServers: { meta: { ...echoMetaEntry(), denyTools: ['echo'] }, never: echoMetaEntry() }, plugins: { 'map-tools': false } },
    dataPath: first.dataPath,
  });
  const { text } = await metricsOf(url);
  t.equal(sample(text, 'hub_child_status', { server: 'meta', status: 'sleeping' }), 1, 'nothing was called or woken');
  for (const outcome of ['ok', 'tool_error', 'protocol_error', 'timeout', 'unavailable']) {
    t.equal(sample(text, 'hub_tool_calls_total', { server: 'meta', tool: 'echo_meta', outcome }), 0, `echo_meta ${outcome} at 0`);
  }
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'meta', tool: 'echo', outcome: 'denied' }), 0, 'a denied tool, by the name denyTools gives');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'meta', tool: 'echo', outcome: 'ok' }), undefined, 'not as a tool callers have');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'meta', tool: '(unlisted)', outcome: 'unknown_tool' }), 0, 'unknown tools');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'never', tool: '(unlisted)', outcome: 'unknown_tool' }), 0, 'a server never seen has its series too');
  t.equal(sample(text, 'hub_tool_call_duration_seconds_count', { server: 'meta', tool: 'echo_meta', outcome: 'ok' }), 0, 'durations at 0');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'hub', tool: 'call_tool', outcome: 'ok' }), 0, "/hub's own tools");
  for (const server of ['meta', 'never']) {
    t.equal(sample(text, 'hub_child_restarts_total', { server }), 0, `${server}: restarts at 0`);
    t.equal(sample(text, 'hub_child_crashes_total', { server }), 0, `${server}: crashes at 0`);
    t.equal(sample(text, 'hub_child_start_failures_total', { server }), 0, `${server}: failed starts at 0`);
    t.equal(sample(text, 'hub_child_starts_total', { server, reason: 'wake' }), 0, `${server}: starts at 0`);
  }
});

t.test('series and reload metrics follow config reloads, which the status page reports', async (t) => {
  const config = (servers: Record<string, unknown>) => ({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: servers });
  const hub = await startStandaloneHub(t, { HUB_PASSWORD: 'pw', LOG_LEVEL: 'info' }, { config: config({ kept: echoMetaEntry(), removed: echoMetaEntry() }) });
  const client = await connectClient(t, `${hub.url}/kept/mcp`, '2026-07-28');
  await client.callTool({ name: 'echo_meta', arguments: {} });
  const before = (await metricsOf(hub.url)).text;
  t.equal(sample(before, 'hub_tool_calls_total', { server: 'kept', tool: 'echo_meta', outcome: 'ok' }), 1);
  t.equal(sample(before, 'hub_tool_calls_total', { server: 'removed', tool: '(unlisted)', outcome: 'unknown_tool' }), 0);
  const startedAt = sample(before, 'hub_config_reload_last_success_timestamp_seconds') ?? 0;

  // The hub watches its config file: writing it is the reload (a SIGHUP as well would race it).
  await writeFile(hub.configFile, JSON.stringify(config({ kept: echoMetaEntry(), added: echoMetaEntry() })));
  await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded');
  const after = (await metricsOf(hub.url)).text;
  t.equal(sample(after, 'hub_tool_calls_total', { server: 'kept', tool: 'echo_meta', outcome: 'ok' }), 1, 'a kept server keeps its counts');
  t.equal(sample(after, 'hub_tool_calls_total', { server: 'added', tool: '(unlisted)', outcome: 'unknown_tool' }), 0, 'an added server has its series at once');
  t.equal(sample(after, 'hub_child_restarts_total', { server: 'added' }), 0);
  t.notOk(after.includes('server="removed"'), "a removed server's series are gone");
  t.ok((sample(after, 'hub_config_reload_last_success_timestamp_seconds') ?? 0) >= startedAt, 'the success is dated');
  t.equal(sample(after, 'hub_config_last_reload_successful'), 1);

  await writeFile(hub.configFile, '{ "mcpServers": { "bad": { "command": 7 } } }');
  await hub.waitForLog('the refusal', (line) => typeof line.msg === 'string' && line.msg.startsWith('config reload refused'));
  const refused = (await metricsOf(hub.url)).text;
  t.equal(sample(refused, 'hub_config_reload_failures_total'), 1, 'a refused reload is counted');
  t.equal(sample(refused, 'hub_config_last_reload_successful'), 0, 'and the last reload is not successful');
  t.equal(sample(refused, 'hub_config_reload_last_success_timestamp_seconds'), sample(after, 'hub_config_reload_last_success_timestamp_seconds'), 'the last success stays');

  const cookie = await operatorSession(hub.url, 'pw');
  const status = (await (await fetch(`${hub.url}/status.json`, { headers: { cookie } })).json()) as { hub: { lastReload: { outcome: string; trigger: string; error: string } } };
  t.match(status.hub.lastReload, { outcome: 'refused', trigger: 'file change', error: /command/ }, 'the status page says the last reload was refused, and why');
  // On the page too: the console's overview (where /status leads), drawn in Chromium.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  t.teardown(() => browser.close());
  const context = await browser.newContext();
  const [name, value] = cookie.split(/=(.*)/s);
  await context.addCookies([{ name: name ?? '', value: value ?? '', url: hub.url }]);
  const page = await context.newPage();
  await page.goto(`${hub.url}/status`);
  await page.locator('#last-reload').waitFor();
  t.match(await page.textContent('#last-reload'), /The last config reload \(file change, .*\) was refused: .*command.* The running config stays in force\./, 'on the page too');
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
  // Issue 27, defect 5: the refusal named `hub-admin tokens create`, a command that does not exist.
  t.match((JSON.parse(refused.text) as { error_description?: unknown }).error_description, /hub-admin tokens mint\b/, 'the refusal names the command that mints a token');
  t.notOk(refused.text.includes('tokens create'), 'and no command that does not exist');
  t.equal((await metricsOf(url, { ...proxied, authorization: 'Bearer wrong-token' })).status, 401, 'a wrong token: refused');
  const scraped = await metricsOf(url, { ...proxied, authorization: 'Bearer scrape-secret-1234' });
  t.equal(scraped.status, 200, 'METRICS_TOKEN: allowed');
  const minted = await new ApiTokens(collections(hub.store), hub.settings.baseUrl).mint('prometheus', 600);
  const withApiToken = await metricsOf(url, { ...proxied, authorization: `Bearer ${minted.token}` });
  t.equal(withApiToken.status, 200, 'an API token: allowed');
  t.ok((sample(withApiToken.text, 'hub_auth_failures_total', { reason: 'invalid_token' }) ?? 0) >= 1, 'the wrong token is an auth failure');
  t.equal(sample(withApiToken.text, 'hub_http_requests_total', { route: '/metrics', status: '401' }), 2, 'the refusals are counted by route');
});

t.test('an unknown method or revision never becomes a label value', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { everything: everythingEntry() }, plugins: { 'map-tools': false } } });
  await fetch(`${url}/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': 'made-up-revision' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'client/invented-method', params: {} }),
  }).then((response) => response.text());
  const { text } = await metricsOf(url);
  t.equal(total(text, 'hub_mcp_requests_total', { endpoint: 'hub', method: 'other', revision: 'unknown' }), 1);
  t.notOk(/invented|made-up/.test(text), 'nothing the client made up is a label');
});

t.test("a loopback hub behind a reverse proxy on the same host does not show /metrics to the proxy's clients", async (t) => {
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
