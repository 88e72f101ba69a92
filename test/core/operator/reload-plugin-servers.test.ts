import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { startStandaloneHub, type StandaloneHub } from '../../helpers/hub.js';
import { fixtureEntry, tempDir } from '../children/helpers.js';

// Issue 60, item 8: a hub started without a config file serves the built-in map server;
// a config written into it that does not name map-tools takes the map server out, as a
// restart with that config would: reload and restart give the same set of servers. The
// standalone hub in this process (reloaded by the file it watches, restarted on the same
// file and data): the set of servers is the subject, not the hub's process.

/** The servers the hub has, as /health names them. */
const servers = async (hub: StandaloneHub) => Object.keys(((await (await fetch(`${hub.url}/health`)).json()) as { servers: Record<string, string> }).servers).sort();

t.test('a config written into a running hub leaves out the map server, as a restart with it does', async (t) => {
  const directory = await tempDir(t);
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { configFile: join(directory, 'mcp.json') });
  t.same(await servers(hub), ['map'], 'without a config file, the map server is served');

  const config = { plugins: { 'oauth-as': false }, mcpServers: { own: fixtureEntry('crashy', join(directory, 'own')) } };
  await writeFile(hub.configFile, JSON.stringify(config));
  const reloaded = await hub.waitForLog('the reload', (line) => line.msg === 'config reloaded');
  t.match(reloaded, { added: ['own'], removed: ['map'] }, 'the reload takes the map server out');
  t.ok(
    hub.logs().some((line) => line.level === 40 && /the config turns off "map-tools"/.test(line.msg)),
    'saying why',
  );
  t.same(await servers(hub), ['own'], 'the map server is gone');
  await hub.close();

  const restarted = await startStandaloneHub(t, {}, { configFile: hub.configFile, dataPath: hub.dataPath });
  t.same(await servers(restarted), ['own'], 'the same servers as after a restart with that config');
});
