import type { PluginHub } from '../../../core/plugin-hub.js';
import t from 'tap';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

const setup = (hub: PluginHub) => void hub.servers.addInProcess('sink', createKitchenSink);

t.test('progress keeps a call alive past the timeout; silence ends it with a tool error', async (t) => {
  const { url } = await startTestHub(t, { setup, env: { TOOL_CALL_TIMEOUT_MS: '350' } });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const slow = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 6 } }, { onprogress: () => undefined });
  t.same(slow.content, [{ type: 'text', text: 'done after 6 steps' }], 'six progress steps of 100 ms outlive a 350 ms timeout');
  const hung = await client.callTool({ name: 'hang', arguments: {} });
  t.equal(hung.isError, true);
  t.match((hung.content as Array<{ text: string }>)[0]?.text, /^Tool call failed: server "sink": .*timed out/i);
});
