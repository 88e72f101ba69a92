import { join } from 'node:path';
import t from 'tap';
import type { PluginHub } from '../../../core/plugin-hub.js';
import { fixtureEntry, tempDir } from '../../core/children/helpers.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';

const setup = (hub: PluginHub) => void hub.servers.addInProcess('sink', createKitchenSink);

t.test('with mcp-2025-11-25 disabled, initialize is refused naming what is served', async (t) => {
  const { url } = await startTestHub(t, { setup, config: { plugins: { 'mcp-2025-11-25': false } } });
  await t.rejects(connectClient(t, `${url}/sink/mcp`, '2025-11-25'));
  const raw = await rawRequest(`${url}/sink/mcp`, '2025-11-25', 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1.0.0' },
  });
  t.equal(raw.error?.code, -32022);
  t.same((raw.error?.data as { supported: string[] }).supported, ['2026-07-28']);
  const modern = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  t.ok((await modern.listTools()).tools.length > 0);
});

t.test('on 2025-11-25 nothing is pushed: no listChanged, no subscribe, resources/subscribe refused', async (t) => {
  const { url } = await startTestHub(t, { setup });
  const legacy = await connectClient(t, `${url}/sink/mcp`, '2025-11-25');
  const capabilities = legacy.getServerCapabilities();
  t.notOk(capabilities?.tools?.listChanged);
  t.notOk(capabilities?.resources?.subscribe);
  t.notOk(capabilities?.resources?.listChanged);
  const subscribe = await rawRequest(`${url}/sink/mcp`, '2025-11-25', 'resources/subscribe', { uri: 'memo://readme' });
  t.equal(subscribe.error?.code, -32601);
  const modern = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  t.equal(modern.getServerCapabilities()?.tools?.listChanged, true, 'the modern revision advertises list changes');
});

t.test('with callers: false, the revision is refused to callers but still spoken to a child that only speaks it', async (t) => {
  const starts = join(await tempDir(t), 'starts');
  const { url } = await startTestHub(t, { config: { plugins: { 'mcp-2025-11-25': { callers: false } }, mcpServers: { old: fixtureEntry('echo-meta', starts) } } });
  const refused = await rawRequest(`${url}/old/mcp`, '2025-11-25', 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } });
  t.equal(refused.error?.code, -32022, 'a 2025-11-25 caller is refused');
  const modern = await connectClient(t, `${url}/old/mcp`, '2026-07-28');
  const answer = await modern.callTool({ name: 'echo_meta', arguments: {} });
  t.equal(answer.isError, undefined, 'a 2026-07-28 caller reaches the child, which the hub speaks 2025-11-25 to');
});

t.test('disabled, a child that only speaks its family fails at once, saying which revision it speaks', async (t) => {
  const starts = join(await tempDir(t), 'starts');
  const { url } = await startTestHub(t, { config: { plugins: { 'mcp-2025-11-25': false }, mcpServers: { old: fixtureEntry('echo-meta', starts) } } });
  const modern = await connectClient(t, `${url}/hub`, '2026-07-28');
  const answer = await modern.callTool({ name: 'call_tool', arguments: { server: 'old', tool: 'echo_meta' } });
  t.equal(answer.isError, true);
  t.match((answer.content[0] as { text: string }).text, /server "old" could not start: it speaks MCP 2025-11-25, which no enabled revision plugin speaks to servers \(the hub speaks 2026-07-28\)/);
});
