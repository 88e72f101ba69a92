import { join } from 'node:path';
import t from 'tap';
import { FAST, fixtureEntry, starts, tempDir, waitFor } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { callMeta, metaError, structuredMeta } from './helpers.js';

const ECHO = { name: 'echo', description: 'Answers "ok"', annotations: { readOnlyHint: true } };
const CRASH = { name: 'crash', description: 'Exits with status 3' };

for (const revision of REVISIONS) {
  t.test(`on-demand stdio servers through /hub on ${revision}`, async (t) => {
    const directory = await tempDir(t);
    const lazyStarts = join(directory, 'lazy');
    const soloStarts = join(directory, 'solo');
    const { url, hub } = await startTestHub(t, {
      config: {
        plugins: { 'map-tools': false },
        mcpServers: {
          lazy: { ...fixtureEntry('crashy', lazyStarts), denyTools: ['freeze'] },
          solo: { ...fixtureEntry('crashy', soloStarts), hub: false },
        },
      },
      kernel: (created) => created.children.configure(FAST),
    });
    const lazy = hub.children.get('lazy');
    if (!lazy) throw new Error('no child');
    const client = await connectClient(t, `${url}/hub`, revision);

    t.same(await structuredMeta(t, client, 'list_servers'), {
      servers: [
        { name: 'lazy', description: 'lazy', status: 'sleeping' },
        { name: 'solo', description: 'solo', status: 'sleeping', hidden: true },
      ],
    });
    t.equal(await metaError(client, 'call_tool', { server: 'lazy', tool: 'freeze' }), 'Unknown tool: "freeze" on server "lazy". Call list_tools with server "lazy" for its tools.');
    t.same(starts(lazyStarts).length + starts(soloStarts).length, 0, 'listing and a filtered name woke nothing');

    t.same(
      await structuredMeta(t, client, 'list_tools', { server: 'lazy' }),
      { server: 'lazy', tools: [ECHO, CRASH] },
      'a list never seen is learnt by starting the server, never claimed empty; filtered; no annotations key when none',
    );
    t.equal(lazy.status, 'up');

    t.same(await structuredMeta(t, client, 'sleep_server', { server: 'lazy' }), { name: 'lazy', status: 'sleeping' });
    t.same(await structuredMeta(t, client, 'sleep_server', { server: 'lazy' }), { name: 'lazy', status: 'sleeping' }, 'a no-op when sleeping');
    t.match(await structuredMeta(t, client, 'list_servers'), { servers: [{ name: 'lazy', description: 'Fixture crashy', status: 'sleeping', toolCount: 2 }] }, 'the cached count');
    t.same(await structuredMeta(t, client, 'get_tool_schema', { server: 'lazy', tool: 'echo' }), {
      server: 'lazy',
      name: 'echo',
      description: 'Answers "ok"',
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true },
    });
    t.match(await metaError(client, 'call_tool', { server: 'lazy', tool: 'no_such_tool' }), /^Unknown tool: "no_such_tool"/);
    t.equal(lazy.status, 'sleeping', 'schema lookups and unknown names are answered from the cache');
    t.equal(starts(lazyStarts).length, 1);

    t.same(await structuredMeta(t, client, 'list_tools', { server: 'lazy' }), { server: 'lazy', tools: [ECHO, CRASH] }, 'a sleeping server answers from its cache');
    await waitFor('the second pre-warm', () => lazy.status === 'up');
    t.equal(starts(lazyStarts).length, 2, 'and was pre-warmed');
    await lazy.sleep();

    const echoed = await callMeta(client, 'call_tool', { server: 'lazy', tool: 'echo', arguments: {} });
    t.match(echoed.content, [{ type: 'text', text: 'ok' }], 'call_tool wakes a sleeping server and returns its result');
    t.equal(lazy.status, 'up');
    t.same(await structuredMeta(t, client, 'wake_server', { server: 'lazy' }), { name: 'lazy', status: 'up', toolCount: 2 }, 'a no-op when up');
    t.equal(starts(lazyStarts).length, 3);

    await lazy.sleep();
    t.same(await structuredMeta(t, client, 'wake_server', { server: 'lazy' }), { name: 'lazy', status: 'up', toolCount: 2 }, 'blocks until up');
    t.equal(starts(lazyStarts).length, 4);

    const crashed = await callMeta(client, 'call_tool', { server: 'lazy', tool: 'crash' });
    t.equal(crashed.isError, true);
    t.match(crashed.content, [{ type: 'text', text: /^Tool call failed: server "lazy": / }]);

    t.same(await structuredMeta(t, client, 'wake_server', { server: 'solo' }), { name: 'solo', status: 'up', toolCount: 3 }, 'a hub: false server can be woken');
    t.same(await structuredMeta(t, client, 'sleep_server', { server: 'solo' }), { name: 'solo', status: 'sleeping' }, 'and put to sleep');
    t.match(await metaError(client, 'list_tools', { server: 'solo' }), `${hub.settings.baseUrl}/solo/mcp`);
  });
}

t.test('a server that cannot start', async (t) => {
  const { url } = await startTestHub(t, {
    config: { plugins: { 'map-tools': false }, mcpServers: { broken: { command: join(await tempDir(t), 'no-such-command') } } },
    kernel: (created) => created.children.configure(FAST),
  });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    t.match(await metaError(client, 'wake_server', { server: 'broken' }), /^Could not wake server "broken": server "broken" could not start: cannot run .*ENOENT/);
    t.match(
      await metaError(client, 'call_tool', { server: 'broken', tool: 'anything' }),
      /^Tool call failed: server "broken" could not start/,
      'with no cached list, the wake is needed to know the tool',
    );
    t.match(await metaError(client, 'get_tool_schema', { server: 'broken', tool: 'anything' }), /^Could not read the tool list: server "broken" could not start/);
    t.match(await structuredMeta(t, client, 'list_servers'), { servers: [{ name: 'broken', status: 'down', toolCount: undefined, reason: /ENOENT/ }] });
  }
});
