import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import t from 'tap';
import { hits, search } from './helpers.js';
import { fixtureEntry, starts } from '../../core/children/helpers.js';
import { cliPath } from '../../helpers/cli.js';
import { REVISIONS } from '../../helpers/clients.js';
import { structuredMeta } from '../meta-tools/helpers.js';

/*
 * Issue 39: search_tools over hub-stdio, on both revisions: a real hub-stdio process, a
 * real stdio child. A second process on the same data folder finds the child's tools in
 * its snapshot and does not start it.
 */
for (const revision of REVISIONS) {
  t.test(`search_tools over hub-stdio on ${revision}, from a snapshot without waking`, async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'tool-search-stdio-'));
    const lazyStarts = join(folder, 'lazy-starts');
    const config = join(folder, 'mcp.json');
    await writeFile(
      config,
      JSON.stringify({
        plugins: { 'oauth-as': false, 'map-tools': false, 'tool-search': true },
        mcpServers: { lazy: fixtureEntry('crashy', lazyStarts), never: fixtureEntry('crashy', join(folder, 'never-starts')) },
      }),
    );
    const open = async () => {
      const client = new Client({ name: 'tool-search-stdio', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [cliPath('hub-stdio')],
        env: { HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), BASE_URL: 'https://hub.example', PATH: process.env.PATH ?? '' },
        stderr: 'ignore',
      });
      await client.connect(transport);
      t.teardown(() => client.close());
      t.equal(client.getNegotiatedProtocolVersion(), revision);
      return client;
    };

    const first = await open();
    const { tools } = await first.listTools();
    t.same(
      tools.map((tool) => tool.name),
      ['list_servers', 'list_tools', 'get_tool_schema', 'call_tool', 'wake_server', 'sleep_server', 'search_tools'],
      'the six and search_tools',
    );
    const before = await search(t, first, 'exits with a status');
    t.same(before.tools, [], 'nothing is known before a server ran');
    t.same(
      before.notSearchable?.map((entry) => entry.server),
      ['lazy', 'never'],
      'both are named as not searchable',
    );
    t.equal(starts(lazyStarts).length, 0, 'and neither was started');
    await structuredMeta(t, first, 'wake_server', { server: 'lazy' });
    t.same(hits(await search(t, first, 'exits with a status'))[0], 'lazy/crash', 'once up, its tools are found');
    await first.close();

    const second = await open();
    const answer = await search(t, second, 'exit status crash');
    t.same(hits(answer)[0], 'lazy/crash', 'a new process finds them in the snapshot');
    t.same(answer.tools[0]?.description, 'Exits with status 3');
    t.same(
      answer.notSearchable?.map((entry) => entry.server),
      ['never'],
    );
    t.equal(starts(lazyStarts).length, 1, 'without starting the server again');
    t.equal(starts(join(folder, 'never-starts')).length, 0, 'the other was never started');
  });
}
