import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { fixtureEntry, startHub, starts, tempDir, waitFor } from '../../core/children/helpers.js';

t.test('the snapshot answers listing after a hub restart without starting the child', async (t) => {
  const directory = await tempDir(t);
  const dataPath = await tempDir(t);
  const file = join(directory, 'starts');
  const config = { mcpServers: { crashy: fixtureEntry('crashy', file) } };

  const first = await startHub(t, { config, dataPath });
  await first.hub.children.get('crashy')?.ensureUp();
  await first.app.close();
  const snapshot = JSON.parse(await readFile(join(dataPath, 'snapshots', 'crashy.json'), 'utf8')) as {
    serverInfo: unknown;
    instructions: string;
    capabilities: { tools?: unknown };
    tools: { name: string; annotations?: unknown }[];
  };
  t.same(snapshot.serverInfo, { name: 'crashy', title: 'Fixture crashy', version: '1.0.0' }, "the child's identity is kept");
  t.equal(snapshot.instructions, 'Instructions of crashy.', 'and its instructions');
  t.ok(snapshot.capabilities.tools, 'and its capabilities');
  t.same(snapshot.tools.find((tool) => tool.name === 'echo')?.annotations, { readOnlyHint: true }, 'annotations are kept');

  const second = await startHub(t, { config, dataPath });
  const child = second.hub.children.get('crashy');
  if (!child) throw new Error('no child');
  t.equal(child.status, 'sleeping');
  t.same(child.tools.map((tool) => tool.name).sort(), ['crash', 'echo', 'freeze']);
  t.equal(child.description, 'Fixture crashy');
  t.equal(child.instructions, 'Instructions of crashy.');
  t.equal(child.revision, '2025-11-25', 'the negotiated revision is remembered across restarts');
  t.equal(starts(file).length, 1, 'listing did not start the child');
});

t.test('a corrupt snapshot is logged and ignored', async (t) => {
  const directory = await tempDir(t);
  const dataPath = await tempDir(t);
  await mkdir(join(dataPath, 'snapshots'), { recursive: true });
  await writeFile(join(dataPath, 'snapshots', 'crashy.json'), '{"version": 1, "tools": [');
  await writeFile(join(dataPath, 'snapshots', 'other.json'), JSON.stringify({ version: 1, name: 'someone-else', tools: [] }));
  const { hub, logs } = await startHub(t, {
    config: { mcpServers: { crashy: fixtureEntry('crashy', join(directory, 'a')), other: fixtureEntry('crashy', join(directory, 'b')) } },
    dataPath,
  });
  t.same(hub.children.get('crashy')?.tools, [], 'no tools until the child runs');
  t.equal(logs.filter((line) => line.msg === 'tool snapshot corrupt; ignored').length, 2, 'both bad snapshots were logged');
  await hub.children.get('crashy')?.ensureUp();
  await waitFor('the snapshot to be rewritten', async () => (await readFile(join(dataPath, 'snapshots', 'crashy.json'), 'utf8')).includes('"echo"'));
});

t.test('a tools/list_changed from the child refreshes the list and rewrites the snapshot', async (t) => {
  const directory = await tempDir(t);
  const { hub, dataPath } = await startHub(t, { config: { mcpServers: { changing: fixtureEntry('changing-tools', join(directory, 'starts')) } } });
  const child = hub.children.get('changing');
  if (!child) throw new Error('no child');
  const changes: string[][] = [];
  child.onChange((change) => {
    if (change.kind === 'tools') changes.push(child.tools.map((tool) => tool.name));
  });
  await child.withClient((client) => client.callTool({ name: 'add_tool', arguments: {} }));
  await waitFor('the list to change', () => child.findTool('extra_1') !== undefined);
  t.ok(changes.at(-1)?.includes('extra_1'), 'onChange saw the new list');
  const file = join(dataPath, 'snapshots', 'changing.json');
  // The snapshot is written in the background; until the first write lands there is no file.
  await waitFor('the snapshot to be rewritten', async () => (await readFile(file, 'utf8').catch(() => '')).includes('extra_1'));
  const snapshot = JSON.parse(await readFile(file, 'utf8')) as { tools: { name: string; annotations?: unknown }[] };
  t.same(snapshot.tools.find((tool) => tool.name === 'extra_1')?.annotations, { idempotentHint: true });
});
