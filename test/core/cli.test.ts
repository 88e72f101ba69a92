import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import t from 'tap';
import { cliPath, runNode } from '../helpers/cli.js';

const mapServer = fileURLToPath(new URL('../../plugins/map-tools/cli.js', import.meta.url));

t.test('every bin answers --help', async (t) => {
  for (const [name, script] of [
    ['hub', cliPath('hub')],
    ['hub-stdio', cliPath('hub-stdio')],
    ['hub-admin', cliPath('hub-admin')],
    ['map-server', mapServer],
  ] as const) {
    const result = await runNode(script, ['--help'], { DATA_PATH: await mkdtemp(join(tmpdir(), 'cli-help-')) });
    t.equal(result.code, 0, `${name} --help exits 0`);
    t.match(result.stdout, /Usage/, `${name} --help prints usage`);
  }
});

t.test('hub-stdio serves the meta-tools over stdio on both revisions, logging on stderr only', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'hub-stdio-'));
  const config = join(folder, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: {}, plugins: { 'oauth-as': false, 'map-tools': true } }));
  for (const mode of [{}, { versionNegotiation: { mode: { pin: '2026-07-28' as const } } }]) {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, mode);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliPath('hub-stdio')],
      env: { HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    await client.connect(transport);
    t.teardown(() => client.close());
    const { tools } = await client.listTools();
    t.same(tools.map((tool) => tool.name).sort(), ['call_tool', 'get_tool_schema', 'list_servers', 'list_tools', 'sleep_server', 'wake_server']);
    const listed = await client.callTool({ name: 'list_servers', arguments: {} });
    t.match(listed.structuredContent, { servers: [{ name: 'map' }] }, `${client.getNegotiatedProtocolVersion()}: the built-in map server is listed`);
    const geocode = await client.callTool({ name: 'call_tool', arguments: { server: 'map', tool: 'straight_line_distance', arguments: { from: '43.7394,7.4275', to: '43.7307,7.4253' } } });
    t.notOk(geocode.isError, 'call_tool reaches the map child');
    t.match(geocode.structuredContent, { untrusted: true, source: 'openstreetmap' });
    await client.close();
  }
});

t.test('hub-stdio with the 2026-07-28 plugin disabled refuses that revision and serves 2025-11-25', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'hub-stdio-legacy-'));
  const config = join(folder, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: {}, plugins: { 'oauth-as': false, 'map-tools': false, 'mcp-2026-07-28': false } }));
  const connect = async (mode: ConstructorParameters<typeof Client>[1]) => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, mode);
    t.teardown(() => client.close());
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [cliPath('hub-stdio')], env: { HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), PATH: process.env.PATH ?? '' }, stderr: 'pipe' }),
    );
    return client;
  };
  await t.rejects(connect({ versionNegotiation: { mode: { pin: '2026-07-28' } } }), /2025-11-25|[Uu]nsupported/, 'a modern client is refused, naming what is served');
  const legacy = await connect({});
  t.equal(legacy.getNegotiatedProtocolVersion(), '2025-11-25');
  t.equal((await legacy.listTools()).tools.length, 6);
});
