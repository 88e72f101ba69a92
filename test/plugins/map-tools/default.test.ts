import { join } from 'node:path';
import t from 'tap';
import { startStandaloneHub } from '../../helpers/hub.js';
import { tempDir } from '../../core/children/helpers.js';
import { MONACO_PBF } from './offline/extract.js';

// Issue 18, item 12: the built-in map server (which calls public services) is there by
// default only when there is no config file; a config adds it by naming it in `plugins`.
// The log says where its answers come from. The standalone hub in this process: which
// servers a config gives is the subject, not the hub's process.

const LOG = { LOG_LEVEL: 'info' };

async function servers(url: string): Promise<string[]> {
  return Object.keys(((await (await fetch(`${url}/health`)).json()) as { servers: Record<string, string> }).servers);
}

t.test('without a config file the map server is the default, answering online', async (t) => {
  const hub = await startStandaloneHub(t, LOG, { configFile: join(await tempDir(t), 'mcp.json') });
  t.same(await servers(hub.url), ['map']);
  const source = await hub.waitForLog('the map source', (line) => line.server === 'map' && typeof line.source === 'string');
  t.match(source, { source: 'online', msg: /answers from online services \(nominatim\.openstreetmap\.org, .*\); set MAP_OSM_FILE to answer offline/ });
});

t.test('a config file that does not name the map plugin has no map server', async (t) => {
  const hub = await startStandaloneHub(t, LOG, { config: { mcpServers: {}, plugins: { 'oauth-as': false } } });
  t.same(await servers(hub.url), []);
  t.equal((await fetch(`${hub.url}/map/mcp`, { method: 'POST' })).status, 404);
  // The log is written asynchronously: once the listening record is in, every start-up record is.
  await hub.waitForLog('the listening record', (line) => line.msg.startsWith('Server listening'));
  t.notOk(
    hub.logs().some((line) => line.server === 'map'),
    'nothing about a map in the log',
  );
});

t.test('a config that names it gets it; with MAP_OSM_FILE the log says it answers offline', async (t) => {
  const hub = await startStandaloneHub(t, { ...LOG, MAP_OSM_FILE: MONACO_PBF }, { config: { mcpServers: {}, plugins: { 'map-tools': true } } });
  t.same(await servers(hub.url), ['map']);
  const source = await hub.waitForLog('the map source', (line) => line.server === 'map' && typeof line.source === 'string');
  t.match(source, { source: MONACO_PBF, msg: `map server "map": answers offline from MAP_OSM_FILE ${MONACO_PBF}` });
});
