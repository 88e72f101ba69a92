import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import t from 'tap';
import { fixtureEntry, starts, waitFor } from '../../core/children/helpers.js';
import { cliPath } from '../../helpers/cli.js';
import { REVISIONS } from '../../helpers/clients.js';
import { callMeta, metaError, structuredMeta } from './helpers.js';

const SIX = ['list_servers', 'list_tools', 'get_tool_schema', 'call_tool', 'wake_server', 'sleep_server'];

/*
 * The rules and errors of the meta-tools, over hub-stdio: a real `hub-stdio` process
 * driven by a v2 SDK client on each revision, with real stdio children from the config.
 */
for (const revision of REVISIONS) {
  t.test(`the meta-tools over hub-stdio on ${revision}`, async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'meta-stdio-'));
    const lazyStarts = join(folder, 'lazy-starts');
    const config = join(folder, 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({
        plugins: { 'oauth-as': false, 'map-tools': false },
        mcpServers: {
          lazy: { ...fixtureEntry('crashy', lazyStarts), denyTools: ['freeze'] },
          solo: { ...fixtureEntry('crashy', join(folder, 'solo-starts')), hub: false },
          steady: { ...fixtureEntry('crashy', join(folder, 'steady-starts')), keepAlive: true },
        },
      }),
    );
    const client = new Client({ name: 'stdio-rules', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath('hub-stdio')],
      env: { HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), BASE_URL: 'https://hub.example', PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    await client.connect(transport);
    t.teardown(() => client.close());
    t.equal(client.getNegotiatedProtocolVersion(), revision);

    const { tools } = await client.listTools();
    t.same(
      tools.map((tool) => tool.name),
      SIX,
      'exactly the six tools',
    );
    t.match(tools.find((tool) => tool.name === 'call_tool')?.annotations, { destructiveHint: true, openWorldHint: true });

    const listed = await structuredMeta(t, client, 'list_servers');
    t.match(listed, { servers: [{ name: 'lazy', status: 'sleeping' }, { name: 'solo', hidden: true }, { name: 'steady' }] });
    t.match(await metaError(client, 'call_tool', { server: 'lazy', tool: 'freeze' }), /^Unknown tool: "freeze"/, 'a filtered tool is unknown');
    t.equal(starts(lazyStarts).length, 0, 'listing and a filtered name woke nothing');

    const echoed = await callMeta(client, 'call_tool', { server: 'lazy', tool: 'echo', arguments: {} });
    t.match(echoed.content, [{ type: 'text', text: 'ok' }], 'call_tool wakes a sleeping server and returns its result');
    t.same(await structuredMeta(t, client, 'list_tools', { server: 'lazy' }), {
      server: 'lazy',
      tools: [
        { name: 'echo', description: 'Answers "ok"', annotations: { readOnlyHint: true } },
        { name: 'crash', description: 'Exits with status 3' },
      ],
    });
    t.same(await structuredMeta(t, client, 'sleep_server', { server: 'lazy' }), { name: 'lazy', status: 'sleeping' });
    t.same(await structuredMeta(t, client, 'wake_server', { server: 'lazy' }), { name: 'lazy', status: 'up', toolCount: 2 });

    const crashed = await callMeta(client, 'call_tool', { server: 'lazy', tool: 'crash' });
    t.equal(crashed.isError, true);
    t.match(crashed.content, [{ type: 'text', text: /^Tool call failed: server "lazy": / }], 'a child dying mid-call is a tool error');

    t.match(await metaError(client, 'list_tools', { server: 'solo' }), 'https://hub.example/solo/mcp', 'a hub: false server points at its own endpoint');
    t.match(await metaError(client, 'call_tool', { server: 'solo', tool: 'echo' }), 'https://hub.example/solo/mcp');
    const steadyUp = async () =>
      (((await callMeta(client, 'list_servers')).structuredContent as { servers: unknown }).servers as Array<{ name: string; status: string }>).some(
        (server) => server.name === 'steady' && server.status === 'up',
      );
    await waitFor('the always-running server', steadyUp);
    t.match(await metaError(client, 'sleep_server', { server: 'steady' }), /is always running$/);
    t.match(await metaError(client, 'wake_server', { server: 'steady' }), /is always running$/);
    t.match(await metaError(client, 'list_tools', { server: 'nobody' }), /^Unknown server: "nobody"/);
    await client.close();
    t.notOk(stderr.join('').includes('"jsonrpc"'), 'the protocol never leaks onto stderr');
  });
}
