import t from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { metaError, structuredMeta } from '../meta-tools/helpers.js';
import { firstText, until } from './helpers.js';

// Issue 35 (38 here): a kit follows the tool lists of the servers it draws on, and is
// honoured by filters, `hub: false` and the refusals of wake_server/sleep_server.

const changing = () => ({ command: process.execPath, args: [fixture('changing-tools')] });

t.test("a change of an underlying server's tools reaches the kit: its list, toolCount, /hub, and list_changed on a listen", async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { changing: changing(), kit: { type: 'virtual', tools: [{ server: 'changing', tool: '*', prefix: 'c_' }] } } },
  });
  await hub.children.get('changing')?.ensureUp();
  t.ok(await until(() => hub.children.get('kit')?.findTool('c_add_tool') !== undefined), "the kit lists the woken server's tools");

  const listener = await connectClient(t, `${url}/kit/mcp`, '2026-07-28');
  const heard = new Promise<void>((resolve) => listener.setNotificationHandler('notifications/tools/list_changed', async () => resolve()));
  const subscription = await listener.listen({ toolsListChanged: true });
  t.teardown(() => subscription.close());

  const own = await connectClient(t, `${url}/changing/mcp`, '2025-11-25');
  t.equal(firstText(await own.callTool({ name: 'add_tool', arguments: {} })), 'extra_1');
  await heard;
  t.pass('the listener on /kit/mcp heard tools/list_changed');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const { tools } = await client.listTools();
    t.ok(
      tools.some((tool) => tool.name === 'c_extra_1'),
      `${revision}: the new tool, prefixed`,
    );
    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const servers = await structuredMeta(t, hubClient, 'list_servers');
    t.match(
      (servers.servers as Array<{ name: string }>).find((server) => server.name === 'kit'),
      { toolCount: tools.length },
      `${revision}: toolCount follows`,
    );
    const listed = await structuredMeta(t, hubClient, 'list_tools', { server: 'kit' });
    t.ok(
      (listed.tools as Array<{ name: string }>).some((tool) => tool.name === 'c_extra_1'),
      `${revision}: /hub list_tools follows`,
    );
    t.equal(firstText(await client.callTool({ name: 'c_extra_1', arguments: {} })), 'extra_1', `${revision}: and the new tool is called`);
  }
});

t.test('filters of both servers, hub: false, and wake_server/sleep_server refusing the kit', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        changing: { ...changing(), denyTools: ['mutable'] },
        kit: { type: 'virtual', allowTools: ['c_echo', 'c_mutable', 'c_bump'], tools: [{ server: 'changing', tool: '*', prefix: 'c_' }] },
        hidden: { type: 'virtual', hub: false, tools: [{ server: 'changing', tool: 'echo' }] },
        off: { type: 'virtual', disabled: true, tools: [{ server: 'changing', tool: 'echo' }] },
      },
    },
  });
  await hub.children.get('changing')?.ensureUp();
  t.ok(await until(() => hub.children.get('kit')?.findTool('c_echo') !== undefined && hub.children.get('hidden')?.findTool('echo') !== undefined));
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    t.same((await client.listTools()).tools.map((tool) => tool.name).sort(), ['c_bump', 'c_echo'], `${revision}: the underlying denyTools and the kit's allowTools both apply`);
    const denied = await client.callTool({ name: 'c_add_tool', arguments: {} }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    t.match(denied instanceof Error ? denied.message : firstText(denied), /c_add_tool/, `${revision}: a tool the kit's filter keeps out is unknown`);

    const hubClient = await connectClient(t, `${url}/hub`, revision);
    t.match(await metaError(hubClient, 'call_tool', { server: 'hidden', tool: 'echo', arguments: {} }), /hub: false|not offered/, `${revision}: hub: false is honoured`);
    const hiddenOwn = await connectClient(t, `${url}/hidden/mcp`, revision);
    t.equal(firstText(await hiddenOwn.callTool({ name: 'echo', arguments: {} })), 'ok', `${revision}: on its own endpoint it serves`);
    const servers = (await structuredMeta(t, hubClient, 'list_servers')).servers as Array<{ name: string }>;
    t.notOk(
      servers.some((server) => server.name === 'off'),
      `${revision}: a disabled virtual server is not served`,
    );
    t.match(await metaError(hubClient, 'wake_server', { server: 'kit' }), /always/, `${revision}: wake_server refuses it`);
    t.match(await metaError(hubClient, 'sleep_server', { server: 'kit' }), /always/, `${revision}: sleep_server too`);
  }
});

t.test('a tool pinning withholds is withheld in the kit too', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        changing: { ...changing(), pinTools: true },
        plain: changing(),
        kit: {
          type: 'virtual',
          tools: [
            { server: 'changing', tool: 'mutable', name: 'm' },
            { server: 'plain', tool: 'echo' },
          ],
        },
      },
    },
  });
  await hub.children.get('changing')?.ensureUp();
  await hub.children.get('plain')?.ensureUp();
  // Never approved, every tool of `changing` is withheld; `plain` pins nothing.
  t.ok(await until(() => hub.children.get('kit')?.findTool('echo') !== undefined), "the unpinned server's tool is in the kit");
  t.ok(
    hub.children.get('changing')?.withheldTools.some((tool) => tool.name === 'mutable'),
    'pinning withholds mutable on its server',
  );
  for (const revision of REVISIONS) {
    const kit = await connectClient(t, `${url}/kit/mcp`, revision);
    t.same(
      (await kit.listTools()).tools.map((tool) => tool.name),
      ['echo'],
      `${revision}: listed without the withheld tool`,
    );
    const refused = await kit.callTool({ name: 'm', arguments: {} }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    t.ok(refused instanceof Error || refused.isError === true, `${revision}: a call of it is refused`);
  }
});
