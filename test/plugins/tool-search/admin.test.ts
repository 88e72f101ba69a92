import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { fixtureEntry, starts } from '../../core/children/helpers.js';
import { adminBeside } from '../../helpers/admin.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { PASSWORD } from '../oauth-as/flows.js';

/*
 * Issue 56: `hub-admin tools search` searches every server type. The map server, an
 * OpenAPI server and a virtual server live in the hub's own process and keep no snapshot:
 * hub-admin's hub lists them itself (no process is started for it), where it used to call
 * them down and never search them. A stdio server never started is still named, not
 * started. The standalone hub with its real map server, the Petstore document and a stdio
 * child, and hub-admin's command beside it, both in this process: the command, not either
 * process, is the subject (issue 59).
 */

const petstore = fileURLToPath(new URL('../../../../test/fixtures/openapi/petstore.yaml', import.meta.url));

t.test('hub-admin tools search finds the tools of the map, OpenAPI and virtual servers, and starts no process', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'tool-search-admin-'));
  // The Petstore's API: a connect sends it one HEAD request, and any answer will do.
  const api = createServer((_request, response) => response.writeHead(404).end());
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => api.close(() => resolve())));
  const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  const hub = await startStandaloneHub(
    t,
    { HUB_PASSWORD: PASSWORD },
    {
      config: {
        mcpServers: {
          pets: { type: 'openapi', spec: petstore, baseUrl: apiUrl },
          // An API nothing answers for: its connect cannot succeed, and its start gives up after a second (not the default two minutes, past hub-admin's bound of 10 s).
          gone: { type: 'openapi', spec: petstore, baseUrl: 'http://127.0.0.1:9/v1', startTimeoutMs: 1000 },
          kit: { type: 'virtual', tools: [{ server: 'pets', tool: 'showPetById', name: 'one_pet' }] },
          fresh: fixtureEntry('crashy', join(folder, 'fresh-starts')),
        },
        plugins: { 'map-tools': true, 'tool-search': true },
      },
    },
  );
  const beside = adminBeside(hub.env);
  const admin = (...args: string[]) => beside('tools', 'search', ...args);
  const found = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t').slice(0, 2).join('/'));

  const pets = await admin('list', 'all', 'pets');
  t.equal(pets.code, 0, pets.stderr);
  t.ok(found(pets.stdout).includes('pets/listPets'), `the OpenAPI server's tool is found: ${pets.stdout}`);
  t.notMatch(pets.stderr, /not searched: (pets|map|kit)\b/, "no server of the hub's own process is called down");
  t.match(pets.stderr, /not searched: fresh: it has never started/, 'the stdio server never started is named');
  // Why, as the start says it: the refused connection, or the budget itself when the first
  // attempt was cut by it before the refusal was read (this process busy past the second:
  // 1 run in 3 on a loaded machine, child-start.ts reports a first attempt's cut as such).
  t.match(
    pets.stderr,
    /not searched: gone: its tools could not be listed: (.*127\.0\.0\.1:9|server "gone" did not start within 1 s)/,
    'an OpenAPI server whose API does not answer is named, with why',
  );

  const route = await admin('driving', 'route', 'between', 'two', 'places', '--server', 'map');
  t.equal(route.code, 0, route.stderr);
  t.ok(found(route.stdout).includes('map/route'), `the map server's tool is found: ${route.stdout}`);

  const kit = await admin('pet', '--server', 'kit');
  t.equal(kit.code, 0, kit.stderr);
  t.same(found(kit.stdout), ['kit/one_pet'], "the virtual server's tool, composed from the OpenAPI server's, is found");

  t.equal(starts(join(folder, 'fresh-starts')).length, 0, 'hub-admin started no process');
});
