import type { PluginHub } from '../../../core/plugin-hub.js';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { waitFor } from '../../core/children/helpers.js';

const setup = (hub: PluginHub) => void hub.servers.addInProcess('sink', createKitchenSink);
const changingTools = fileURLToPath(new URL('../../fixtures/children/changing-tools.js', import.meta.url));

t.test('with mcp-2026-07-28 disabled, 2026-07-28 is refused naming what is served', async (t) => {
  const { url } = await startTestHub(t, { setup, config: { plugins: { 'mcp-2026-07-28': false } } });
  await t.rejects(connectClient(t, `${url}/sink/mcp`, '2026-07-28'), /2026-07-28/);
  const raw = await rawRequest(`${url}/sink/mcp`, '2026-07-28', 'tools/list');
  t.equal(raw.error?.code, -32022);
  t.same((raw.error?.data as { supported: string[] }).supported, ['2025-11-25']);
  const legacy = await connectClient(t, `${url}/sink/mcp`, '2025-11-25');
  t.ok((await legacy.listTools()).tools.length > 0, 'the other revision still works');
});

t.test('a subscription on 2026-07-28 receives tools list-changed and ends when the client closes it', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { changing: { command: process.execPath, args: [changingTools] } } },
  });
  // Started first: its first start also changes the list (from unknown), which is not the change under test.
  await hub.children.get('changing')?.ensureUp();
  const client = await connectClient(t, `${url}/changing/mcp`, '2026-07-28');
  let notified = 0;
  const heard = new Promise<void>((resolve) =>
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      notified += 1;
      resolve();
    }),
  );
  const subscription = await client.listen({ toolsListChanged: true });
  t.same(subscription.honoredFilter, { toolsListChanged: true });
  await client.callTool({ name: 'add_tool', arguments: {} });
  await heard;
  t.ok(
    (await client.listTools()).tools.some((tool) => tool.name === 'extra_1'),
    'the next list reflects the change',
  );
  t.equal(notified, 1, 'one notification for one change, none repeated meanwhile');
  await subscription.close();
  t.ok(await subscription.closed, 'the stream closed');
  await hub.children.get('changing')?.disconnect('stopped');
});

t.test('subscriptions carry prompt and resource list changes and updates of the URIs named, and leave nothing behind', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { changing: { command: process.execPath, args: [changingTools] } } },
  });
  const child = hub.children.get('changing');
  await child?.ensureUp();
  const text = (result: { content?: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text;

  const watchers = await Promise.all(
    ['memo://counter', 'memo://other'].map(async (uri) => {
      const client = await connectClient(t, `${url}/changing/mcp`, '2026-07-28');
      const heard: string[] = [];
      client.setNotificationHandler('notifications/resources/updated', async (notification) => void heard.push(notification.params.uri));
      client.setNotificationHandler('notifications/prompts/list_changed', async () => void heard.push('prompts changed'));
      const subscription = await client.listen({ promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: [uri] });
      return { client, heard, subscription, uri };
    }),
  );
  const [first, second] = watchers;
  if (!first || !second) throw new Error('two watchers');
  t.same(first.subscription.honoredFilter, { promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['memo://counter'] });
  const caps = first.client.getServerCapabilities();
  t.match(caps?.resources, { subscribe: true, listChanged: true }, "the child's subscribe capability is re-advertised");

  const watchedByChild = async () => text(await first.client.callTool({ name: 'subscriptions', arguments: {} }));
  await waitFor('the child to watch both URIs', async () => (await watchedByChild()) === '["memo://counter","memo://other"]');
  t.equal(await watchedByChild(), '["memo://counter","memo://other"]', 'the hub asked the child to watch the union of the URIs named');

  await first.client.callTool({ name: 'bump', arguments: {} });
  await first.client.callTool({ name: 'add_prompt', arguments: {} });
  const settled = async (watcher: typeof first, expected: string[]) => {
    await waitFor(`${watcher.uri}'s notifications`, () => watcher.heard.length >= expected.length);
    return [...watcher.heard].sort();
  };
  t.same(await settled(first, ['memo://counter', 'prompts changed']), ['memo://counter', 'prompts changed'], 'the first hears its URI only');
  t.same(await settled(second, ['memo://other', 'prompts changed']), ['memo://other', 'prompts changed'], 'the second hears its URI only');

  for (const watcher of watchers) await watcher.subscription.close();
  const probe = await connectClient(t, `${url}/changing/mcp`, '2026-07-28');
  const stillWatched = async () => text(await probe.callTool({ name: 'subscriptions', arguments: {} }));
  await waitFor('the child to stop watching', async () => (await stillWatched()) === '[]');
  t.equal(await stillWatched(), '[]', 'when the streams closed, the child was asked to stop watching');
  await child?.disconnect('stopped');
});

t.test('list results on 2026-07-28 carry cache hints, and relayed answers carry the endpoint identity', async (t) => {
  const { url } = await startTestHub(t, { setup });
  const hubList = await rawRequest(`${url}/hub`, '2026-07-28', 'tools/list');
  t.match(hubList.result, { ttlMs: 3_600_000, cacheScope: 'public' }, 'the fixed meta-tool list may be cached by anyone');
  for (const method of ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list']) {
    const answer = await rawRequest(`${url}/sink/mcp`, '2026-07-28', method);
    t.equal(typeof answer.result?.ttlMs, 'number', `${method} carries ttlMs`);
    t.equal(answer.result?.cacheScope, 'private', `${method} carries a cache scope`);
    t.match(answer.result?._meta, { 'io.modelcontextprotocol/serverInfo': { name: 'sink' } }, `${method} names the endpoint, not the child's own server name`);
  }
});
