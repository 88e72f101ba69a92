import type { PluginHub } from '../../../core/plugin-hub.js';
import t from 'tap';
import type { Hub } from '../../../core/hub.js';
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

