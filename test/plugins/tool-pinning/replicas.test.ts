import { dirname } from 'node:path';
import t from 'tap';
import { waitFor } from '../../core/children/helpers.js';
import { connectClient } from '../../helpers/clients.js';
import { CHANGING_TOOLS, hubTools, ownTools, pinningHub, serverEntry, textOf } from './helpers.js';

// Issue 30, item 2: pins live in the store, so hub processes on one store agree on what
// is approved, whichever of them (or hub-admin) approved it, and keep it across restarts.

t.test('two hub processes on one store: an approval given anywhere holds in both, and after a restart', async (t) => {
  // hub-admin's own processes beside each hub: three processes on one store are the subject.
  const a = await pinningHub(t, { adminProcess: true });
  const b = await pinningHub(t, { dataPath: a.dataPath, adminProcess: true });
  const own = async (url: string) => connectClient(t, `${url}/changing/mcp`, '2026-07-28');
  const [ownA, ownB] = [await own(a.url), await own(b.url)];
  const hubB = await connectClient(t, `${b.url}/hub`, '2025-11-25');

  t.same(await ownTools(ownA), [], 'A withholds the tools nobody approved');
  t.same(await ownTools(ownB), [], 'so does B');
  t.equal((await a.admin('tools', 'approve', 'changing')).code, 0, 'approved once, beside A');
  t.same(await ownTools(ownB), CHANGING_TOOLS, 'B offers them at its next listing');
  t.same(await hubTools(hubB, 'changing'), CHANGING_TOOLS, 'through /hub too');
  t.same(await ownTools(ownA), CHANGING_TOOLS, 'and A');

  // B's child changes the tool; A's child does not.
  await ownB.callTool({ name: 'redescribe', arguments: {} });
  await waitFor('B to withhold mutable', async () => (await serverEntry(hubB, 'changing'))?.withheldTools?.includes('mutable') === true);
  t.match(textOf(await ownB.callTool({ name: 'mutable', arguments: {} })).text, 'is withheld: its definition changed since an operator approved it', 'B withholds the changed definition');
  t.equal(textOf(await ownA.callTool({ name: 'mutable', arguments: {} })).text, 'mutable, described 0 time(s) anew', 'A goes on offering the approved one its child shows');
  t.match((await a.admin('tools', 'pending')).stdout, 'changing mutable: changed, seen ', 'the change B saw waits in the store');

  t.equal((await b.admin('tools', 'approve', 'changing', 'mutable')).code, 0, 'approved beside B');
  t.equal(textOf(await ownB.callTool({ name: 'mutable', arguments: {} })).text, 'mutable, described 1 time(s) anew', 'B offers the approved change');
  t.equal(textOf(await ownA.callTool({ name: 'mutable', arguments: {} })).text, 'mutable, described 0 time(s) anew', 'A still offers the definition approved before');

  // A's child makes the same change: approved already, through B's approval.
  await ownA.callTool({ name: 'redescribe', arguments: {} });
  await waitFor('A to list the changed description', async () => (await ownA.listTools()).tools.some((tool) => tool.description?.includes('changed 1 time(s)') === true));
  t.equal(textOf(await ownA.callTool({ name: 'mutable', arguments: {} })).text, 'mutable, described 1 time(s) anew', 'A offers it without another approval');
  t.equal((await a.admin('tools', 'pending')).stderr, 'no tool definition waits for approval\n', 'and nothing waits');

  await b.stop();
  const again = await pinningHub(t, { dataPath: a.dataPath, folder: dirname(b.configFile) });
  t.same(await ownTools(await own(again.url)), CHANGING_TOOLS, 'a restarted process offers what was approved, its child as it starts');
});
