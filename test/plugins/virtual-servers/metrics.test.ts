import { writeFile } from 'node:fs/promises';
import t from 'tap';
import { waitFor } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startStandaloneHub, startTestHub } from '../../helpers/hub.js';
import { startHttpSink } from '../../fixtures/servers/http-sink.js';
import { echoMetaEntry, sample } from '../observability/helpers.js';
import { until } from './helpers.js';

// Issue 35 (38 here): /metrics' tool-call series name the virtual server beside the
// underlying server and tool; other calls' series keep their three labels.

const metricsText = async (url: string) => (await fetch(`${url}/metrics`)).text();

t.test('calls through /kit/mcp and through /hub call_tool server kit are counted under the underlying server with virtual_server', async (t) => {
  const sink = await startHttpSink(t);
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        sink: { type: 'http', url: sink.url },
        kit: {
          type: 'virtual',
          tools: [
            { server: 'sink', tool: 'list_colours', name: 'colours' },
            { server: 'sink', tool: 'wrapped_colours' },
          ],
        },
      },
      plugins: { 'map-tools': false },
    },
  });
  await hub.children.get('sink')?.ensureUp();
  t.ok(await until(() => hub.children.get('kit')?.findTool('colours') !== undefined), 'the kit lists the sink tools');

  const before = await metricsText(url);
  t.equal(sample(before, 'hub_tool_calls_total', { server: 'sink', tool: 'list_colours', outcome: 'ok', virtual_server: 'kit' }), 0, "a kit's routed series exist at 0 before its first call");
  t.equal(sample(before, 'hub_tool_calls_total', { server: 'sink', tool: 'wrapped_colours', outcome: 'timeout', virtual_server: 'kit' }), 0);

  for (const revision of REVISIONS) {
    const kit = await connectClient(t, `${url}/kit/mcp`, revision);
    t.notOk((await kit.callTool({ name: 'colours', arguments: {} })).isError, `${revision}: the call on /kit/mcp`);
    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const viaHub = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'kit', tool: 'wrapped_colours', arguments: {} } });
    t.notOk(viaHub.isError, `${revision}: call_tool server kit`);
  }
  const direct = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  t.notOk((await direct.callTool({ name: 'list_colours', arguments: {} })).isError, 'a direct call of the underlying tool');

  const text = await metricsText(url);
  t.equal(
    sample(text, 'hub_tool_calls_total', { server: 'sink', tool: 'list_colours', outcome: 'ok', virtual_server: 'kit' }),
    2,
    '/kit/mcp on both revisions: the underlying server and tool, and the kit',
  );
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'sink', tool: 'wrapped_colours', outcome: 'ok', virtual_server: 'kit' }), 2, '/hub call_tool server kit on both revisions');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'sink', tool: 'list_colours', outcome: 'ok' }), 1, 'the direct call has its own series, with no virtual_server label');
  t.equal(sample(text, 'hub_tool_calls_total', { server: 'sink', tool: 'wrapped_colours', outcome: 'ok' }), 0, 'the routed calls are not counted twice');
  t.equal(sample(text, 'hub_tool_call_duration_seconds_count', { server: 'sink', tool: 'list_colours', outcome: 'ok', virtual_server: 'kit' }), 2, 'the durations carry the label too');
  t.equal(sample(text, 'hub_tool_call_duration_seconds_count', { server: 'sink', tool: 'list_colours', outcome: 'ok' }), 1);
  t.notOk(text.includes('virtual_server=""'), 'no empty virtual_server on other series');
  t.equal(
    sample(text, 'hub_tool_calls_total', { server: 'kit', tool: 'colours', outcome: 'ok' }),
    0,
    "the kit's own series (for calls refused before routing) stay at 0: routed calls are the underlying server's",
  );

  const unknown = await connectClient(t, `${url}/kit/mcp`, '2025-11-25');
  await unknown.callTool({ name: 'list_colours', arguments: {} }).catch(() => undefined);
  t.equal(
    sample(await metricsText(url), 'hub_tool_calls_total', { server: 'kit', tool: '(unlisted)', outcome: 'unknown_tool' }),
    1,
    'a name the kit does not list is its own unknown_tool, not routed',
  );
});

t.test("a reload that takes the kit out removes its series; the underlying server's stay", async (t) => {
  const config = (servers: Record<string, unknown>) => ({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: servers });
  const kit = { type: 'virtual', tools: [{ server: 'meta', tool: 'echo_meta', name: 'echo' }] };
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { config: config({ meta: echoMetaEntry(), kit }) });
  // meta is woken once on its own endpoint: the kit then lists its tool.
  const own = await connectClient(t, `${hub.url}/meta/mcp`, '2026-07-28');
  await own.callTool({ name: 'echo_meta', arguments: {} });
  const client = await connectClient(t, `${hub.url}/kit/mcp`, '2025-11-25');
  await waitFor('the kit to list echo', async () => (await client.listTools()).tools.some((tool) => tool.name === 'echo'));
  await client.callTool({ name: 'echo', arguments: {} });
  const before = await metricsText(hub.url);
  t.equal(sample(before, 'hub_tool_calls_total', { server: 'meta', tool: 'echo_meta', outcome: 'ok', virtual_server: 'kit' }), 1, 'the call through the kit');
  t.equal(sample(before, 'hub_tool_calls_total', { server: 'meta', tool: 'echo_meta', outcome: 'ok' }), 1, 'the direct call');

  await writeFile(hub.configFile, JSON.stringify(config({ meta: echoMetaEntry() })));
  await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded');
  const after = await metricsText(hub.url);
  t.notOk(after.includes('virtual_server="kit"'), "the kit's routed series are gone");
  t.notOk(after.includes('server="kit"'), 'and its own');
  t.equal(sample(after, 'hub_tool_calls_total', { server: 'meta', tool: 'echo_meta', outcome: 'ok' }), 1, "the underlying server's series stay, with their counts");
});
