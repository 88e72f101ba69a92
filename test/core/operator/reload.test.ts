import { existsSync } from 'node:fs';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startHubBin } from '../../helpers/hub-bin.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { fixtureEntry, isAlive, starts, tempDir, waitFor } from '../children/helpers.js';

// Issue 18, item 7: the config reloads on a change of the file and on SIGHUP, without a
// restart: added servers appear, removed ones stop after their calls, changed ones
// restart, unchanged ones keep running untouched, and an invalid config is refused while
// the running one stays in force. What a save, a ConfigMap's swap or a link's change
// reloads is asked of the standalone hub in this process, which watches HUB_CONFIG as the
// hub bin does; SIGHUP, which only a process receives, of the bin.

t.test('saving the config file reloads it, touching only what changed', async (t) => {
  const directory = await tempDir(t);
  const file = (name: string) => join(directory, name);
  const plugins = { 'oauth-as': false, 'map-tools': false };
  const hub = await startStandaloneHub(
    t,
    { LOG_LEVEL: 'info' },
    {
      config: {
        plugins,
        mcpServers: {
          keep: fixtureEntry('crashy', file('keep')),
          slow: fixtureEntry('slow-start', file('slow'), { env: { START_DELAY_MS: '0' } }),
          changed: fixtureEntry('crashy', file('changed-1')),
        },
      },
    },
  );
  const client = await connectClient(t, `${hub.url}/hub`, '2026-07-28');
  const call = (server: string, tool: string, args: Record<string, unknown> = {}) => client.callTool({ name: 'call_tool', arguments: { server, tool, arguments: args } });
  const names = async () => ((await client.callTool({ name: 'list_servers', arguments: {} })).structuredContent as { servers: { name: string }[] }).servers.map((server) => server.name).sort();
  await call('keep', 'echo');
  await call('changed', 'echo');
  const direct = await connectClient(t, `${hub.url}/changed/mcp`, '2025-11-25');
  await direct.callTool({ name: 'echo', arguments: {} });

  // A call in flight on the server about to be removed.
  const release = file('release');
  const held = call('slow', 'hold', { path: release });
  await waitFor('the hold call to reach the child', () => existsSync(`${release}.held`));

  await writeFile(
    hub.configFile,
    JSON.stringify({
      plugins,
      mcpServers: {
        keep: fixtureEntry('crashy', file('keep')),
        changed: fixtureEntry('crashy', file('changed-2')),
        added: fixtureEntry('crashy', file('added')),
      },
    }),
  );
  const reloaded = await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded');
  t.match(reloaded, { trigger: 'file change', added: ['added'], removed: ['slow'], restarted: ['changed'], unchanged: 1 });
  t.same(await names(), ['added', 'changed', 'keep'], 'the removed server is gone, the added one is there');
  t.match((await call('added', 'echo')).content, [{ text: 'ok' }], 'the added server serves');

  const slowPid = starts(file('slow'))[0]?.pid ?? 0;
  t.ok(isAlive(slowPid), 'the removed server still runs while its call is in flight');
  await writeFile(release, '');
  const answer = await held;
  t.notOk(answer.isError, 'the call in flight finished normally');
  t.match(answer.content, [{ text: 'released' }]);
  const takenOut = await hub.waitForLog('the drained servers to stop', (line) => line.msg.startsWith('servers taken out by the reload'));
  // Issue 60, item 10: the record of servers taken out names no server the reload restarted.
  t.same(takenOut.servers, ['slow'], 'the servers taken out are the removed ones');
  const replaced = await hub.waitForLog('the restarted servers', (line) => line.msg.startsWith('servers restarted by the reload'));
  t.same(replaced.servers, ['changed'], 'the restarted ones have a record of their own');
  await waitFor('the removed process to end', () => !isAlive(slowPid));
  t.pass('the removed server stopped once its call was done');

  t.equal(starts(file('keep')).length, 1, 'the unchanged server was not restarted');
  t.ok(isAlive(starts(file('keep'))[0]?.pid ?? 0), 'the unchanged server still runs');
  await waitFor('the changed server to restart', () => starts(file('changed-2')).length === 1);
  t.pass('the changed server, which was up, was started again with its new entry');
  await waitFor('the old process of the changed server to end', () => !isAlive(starts(file('changed-1'))[0]?.pid ?? 0));
  await direct.callTool({ name: 'echo', arguments: {} });
  t.equal(starts(file('changed-1')).length, 1, "its own endpoint does not wake the old entry's process");

  // An invalid config is refused and the running one stays.
  await writeFile(hub.configFile, JSON.stringify({ plugins, mcpServers: { keep: { command: 5 } } }));
  const refused = await hub.waitForLog('the refusal', (line) => line.msg.startsWith('config reload refused'));
  t.match(refused.msg, /the running config stays in force: .*mcp\.json: server "keep": key "command": expected a value of type string/);
  t.equal(refused.level, 50, 'logged as an error');
  t.same(await names(), ['added', 'changed', 'keep'], 'the running config is still in force');

  const broken = `${JSON.stringify({ plugins, mcpServers: {} })},`;
  await writeFile(hub.configFile, broken);
  await hub.waitForLog('the JSON refusal', (line) => /config reload refused.*not valid JSON/.test(line.msg));
  t.same(await names(), ['added', 'changed', 'keep'], 'bad JSON changes nothing either');
});

t.test('SIGHUP reloads without stopping the hub; plugin changes wait for a restart', async (t) => {
  const directory = await tempDir(t);
  const hub = await startHubBin(t, { config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { one: fixtureEntry('crashy', join(directory, 'one')) } } });
  hub.signal('SIGHUP');
  const reloaded = await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded' && line.trigger === 'SIGHUP');
  t.match(reloaded, { added: [], removed: [], restarted: [], unchanged: 1 });
  t.equal((await fetch(`${hub.url}/livez`)).status, 200, 'the hub still serves after SIGHUP');

  await writeFile(hub.configFile, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false, diagnostics: true }, mcpServers: { one: fixtureEntry('crashy', join(directory, 'one')) } }));
  const warned = await hub.waitForLog('the restart warning', (line) => line.msg.includes('"plugins" section changed'));
  t.match(warned.msg, /take effect at the next restart/);
});

t.test('a ConfigMap update (the link to its files swapped to a new folder) reloads the config', async (t) => {
  // The kubelet's layout: mcp.json -> ..data/mcp.json, ..data -> a timestamped folder; an
  // update writes a new folder and renames a new link over ..data. No event names mcp.json.
  const folder = await tempDir(t);
  const plugins = { 'oauth-as': false, 'map-tools': false };
  const version = async (name: string, servers: Record<string, unknown>) => {
    await mkdir(join(folder, name));
    await writeFile(join(folder, name, 'mcp.json'), JSON.stringify({ plugins, mcpServers: servers }));
    await symlink(name, join(folder, '..data_tmp'));
    await rename(join(folder, '..data_tmp'), join(folder, '..data'));
  };
  await version('..2026_01_01_00_00_00.1', { first: fixtureEntry('crashy', join(folder, 'first')) });
  await symlink('..data/mcp.json', join(folder, 'mcp.json'));
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { configFile: join(folder, 'mcp.json') });
  await version('..2026_01_01_00_01_00.2', { first: fixtureEntry('crashy', join(folder, 'first')), second: fixtureEntry('crashy', join(folder, 'second')) });
  const reloaded = await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded');
  t.match(reloaded, { trigger: 'file change', added: ['second'], unchanged: 1 });
});
t.test('a symlinked config is followed: an edit of its target in another folder reloads', async (t) => {
  const linkFolder = await tempDir(t);
  const targetFolder = await tempDir(t);
  const target = join(targetFolder, 'mcp.json');
  const config = (servers: Record<string, unknown>) => JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: servers });
  await writeFile(target, config({ one: fixtureEntry('crashy', join(targetFolder, 'one')) }));
  const link = join(linkFolder, 'mcp.json');
  await symlink(target, link);
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { configFile: link });
  await writeFile(target, config({ one: fixtureEntry('crashy', join(targetFolder, 'one')), two: fixtureEntry('crashy', join(targetFolder, 'two')) }));
  const reloaded = await hub.waitForLog('the reload after the target changed', (line) => line.msg === 'config reloaded' && line.trigger === 'file change');
  t.match(reloaded, { added: ['two'], unchanged: 1 });

  // The link pointed at another file, in a third folder: that one is followed from then on.
  const elsewhere = join(await tempDir(t), 'other.json');
  await writeFile(elsewhere, config({ three: fixtureEntry('crashy', join(targetFolder, 'three')) }));
  await rename(await makeLink(elsewhere, join(linkFolder, 'next')), link);
  await hub.waitForLog('the reload after the link changed', (line) => line.msg === 'config reloaded' && (line.added as string[] | undefined)?.includes('three') === true);
  await writeFile(elsewhere, config({ three: fixtureEntry('crashy', join(targetFolder, 'three')), four: fixtureEntry('crashy', join(targetFolder, 'four')) }));
  await hub.waitForLog('the reload after the new target changed', (line) => line.msg === 'config reloaded' && (line.added as string[] | undefined)?.includes('four') === true);
});

async function makeLink(target: string, path: string): Promise<string> {
  await symlink(target, path);
  return path;
}
