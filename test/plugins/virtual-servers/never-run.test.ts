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
        kit: {
          type: 'virtual',
          tools: [
            { server: 'crashy', tool: 'echo', name: 'say_ok', description: 'Says ok' },
            { server: 'crashy', tool: 'freeze', title: 'Freeze' },
          ],
        },
      },
    },
  });
  t.notOk(hub.children.get('crashy')?.toolsKnown, 'the member never ran: its tools are unknown');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const listed = (await client.listTools()).tools;
    t.same(listed.map((tool) => tool.name).sort(), ['freeze', 'say_ok'], `${revision}: both named tools are listed before the member ran`);
    t.match(
      listed.find((tool) => tool.name === 'say_ok'),
      { description: 'Says ok', inputSchema: { type: 'object' } },
      `${revision}: with the entry's description`,
    );
    t.match(
      listed.find((tool) => tool.name === 'freeze'),
      { title: 'Freeze' },
      `${revision}: with the entry's title`,
    );
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

// Issue 55.3, `*`: a kit selecting every tool of a server that never ran cannot list what it
// has not seen. Its list says which members are unknown yet (`_meta`), without waking them; a
// call of a name the kit does not route yet wakes those members (within the call's budget)
// and is routed once they listed; `/hub`'s list_tools of the kit, which wakes a server never
// seen, wakes them too. A member that cannot start is said as such, not as an unknown tool.
//
// Road x channel covered: the kit's /<name>/mcp on both revisions x tools/list's `_meta`, the
// call's result, the list after it; /hub x list_tools of the kit; a broken member x the call's error.
t.test('a "*" over a never-run member: the list says it is unknown yet, a call wakes it', async (t) => {
  const directory = await tempDir(t);
  const startsFile = join(directory, 'starts');
  const otherStarts = join(directory, 'other-starts');
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        crashy: fixtureEntry('crashy', startsFile),
        other: fixtureEntry('crashy', otherStarts),
        broken: { command: process.execPath, args: [join(directory, 'no-such-server.js')] },
        kit: {
          type: 'virtual',
          tools: [
            { server: 'crashy', tool: '*', prefix: 'c_' },
            { server: 'broken', tool: '*', prefix: 'b_' },
          ],
        },
        other_kit: { type: 'virtual', tools: [{ server: 'other', tool: '*' }] },
      },
    },
  });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const listed = await client.listTools();
    t.same(listed.tools, [], `${revision}: nothing of the unknown members is listed`);
    t.same(listed._meta?.['mcp-switchyard/unknownYet'], ['crashy', 'broken'], `${revision}: the list's _meta names the members unknown yet`);
  }
  t.same(starts(startsFile), [], 'listing woke nothing');

  const client = await connectClient(t, `${url}/kit/mcp`, '2025-11-25');
  const result = await client.callTool({ name: 'c_echo', arguments: {} });
  t.notOk(result.isError, 'the call of a tool of the unknown member ran');
  t.equal(firstText(result), 'ok', "the member's answer");
  t.equal(starts(startsFile).length, 1, 'the call woke the member, once');
  const after = await client.listTools();
  t.same(after.tools.map((tool) => tool.name).sort(), ['c_crash', 'c_echo', 'c_freeze'], 'the kit now lists what the member offers');
  t.same(after._meta?.['mcp-switchyard/unknownYet'], ['broken'], 'only the member that could not start is unknown yet');

  const failed = await client.callTool({ name: 'b_anything', arguments: {} }).then(
    (answer) => JSON.stringify(answer),
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  t.match(failed, /broken/, 'a name of a member that cannot start is answered with that member and its failure');
  t.notMatch(failed, /Unknown tool/i, 'not as an unknown tool');

  t.equal(starts(otherStarts).length, 0, 'the other member has not run');
  const hubClient = await connectClient(t, `${url}/hub`, '2026-07-28');
  const viaHub = await structuredMeta(t, hubClient, 'list_tools', { server: 'other_kit' });
  t.same((viaHub.tools as { name: string }[]).map((tool) => tool.name).sort(), ['crash', 'echo', 'freeze'], "/hub's list_tools woke the member and lists its tools");
  t.equal(starts(otherStarts).length, 1, 'the member started once');
  t.notOk(hub.children.get('other')?.status === 'sleeping', 'the member ran');
});
