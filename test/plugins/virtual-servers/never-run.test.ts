import { join } from 'node:path';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { structuredMeta } from '../meta-tools/helpers.js';
import { fixtureEntry, starts, tempDir } from '../../core/children/helpers.js';
import { firstText } from './helpers.js';

// Issue 55.3: a kit entry that names a tool of a server that never ran is listed from the
// config (its full definition once the server has run), and its call wakes the server; a
// caller holding only the kit needs no other way to start it.
//
// Road x channel covered: the kit's /<name>/mcp on both revisions x tools/list and the
// call's result; /hub x list_tools and call_tool of the kit.

t.test('a named tool of a never-run member is listed from the config and its call wakes the member', async (t) => {
  const directory = await tempDir(t);
  const startsFile = join(directory, 'starts');
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        crashy: fixtureEntry('crashy', startsFile),
        kit: { type: 'virtual', tools: [{ server: 'crashy', tool: 'echo', name: 'say_ok', description: 'Says ok' }, { server: 'crashy', tool: 'freeze', title: 'Freeze' }] },
      },
    },
  });
  t.notOk(hub.children.get('crashy')?.toolsKnown, 'the member never ran: its tools are unknown');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const listed = (await client.listTools()).tools;
    t.same(listed.map((tool) => tool.name).sort(), ['freeze', 'say_ok'], `${revision}: both named tools are listed before the member ran`);
    t.match(listed.find((tool) => tool.name === 'say_ok'), { description: 'Says ok', inputSchema: { type: 'object' } }, `${revision}: with the entry's description`);
    t.match(listed.find((tool) => tool.name === 'freeze'), { title: 'Freeze' }, `${revision}: with the entry's title`);
  }
  t.same(starts(startsFile), [], 'listing woke nothing');
  const hubClient = await connectClient(t, `${url}/hub`, '2026-07-28');
  const viaHub = await structuredMeta(t, hubClient, 'list_tools', { server: 'kit' });
  t.same((viaHub.tools as { name: string }[]).map((tool) => tool.name).sort(), ['freeze', 'say_ok'], '/hub list_tools lists them too');
  const client = await connectClient(t, `${url}/kit/mcp`, '2025-11-25');
  const result = await client.callTool({ name: 'say_ok', arguments: {} });
  t.notOk(result.isError, 'the call ran');
  t.equal(firstText(result), 'ok', "the member's answer");
  t.equal(starts(startsFile).length, 1, 'the call woke the member, once');
  const full = (await client.listTools()).tools.find((tool) => tool.name === 'freeze');
  t.match(full, { description: 'Blocks the event loop for good' }, 'once the member ran, its own definition is listed');
});
