import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { OfflineMap } from '../../../../plugins/map-tools/offline/engine.js';
import { createMapRuntime } from '../../../../plugins/map-tools/runtime.js';
import { startOfflineMap } from '../helpers.js';
import { KNOWN_PLACES, MONACO_PBF } from './extract.js';

/** Long enough for a loaded machine; these are bounds on waiting, not measurements. */
const PATIENCE_MS = 60_000;
const POLL_MS = 20;
const LOADED = /offline map: loaded monaco\.osm\.pbf: 180118 nodes/;
const CLI = fileURLToPath(new URL('../../../../plugins/map-tools/cli.js', import.meta.url));

/** The first value `probe` returns, polled, or undefined when patience runs out. */
async function eventually<T>(probe: () => T | undefined): Promise<T | undefined> {
  for (let polls = 0; polls < PATIENCE_MS / POLL_MS; polls++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return undefined;
}

/** `promise`'s value, or 'gave up' when it takes longer than the patience allows. */
function withPatience<T>(promise: Promise<T>): Promise<T | 'gave up'> {
  let timer: NodeJS.Timeout | undefined;
  const giveUp = new Promise<'gave up'>((resolve) => (timer = setTimeout(() => resolve('gave up'), PATIENCE_MS)));
  return Promise.race([promise, giveUp]).finally(() => clearTimeout(timer));
}

t.test('the hub loads the extract at start, before any tool is called', async (t) => {
  const logs: string[] = [];
  await startOfflineMap(t, MONACO_PBF, logs);
  const loaded = await eventually(() => logs.find((line) => LOADED.test(line)));
  t.ok(loaded, 'the load is logged without a single call');
  t.ok(logs.some((line) => /offline map: loading .*monaco\.osm\.pbf/.test(line)));
});

t.test('tools that need no map answer while the extract is still loading', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'map-fifo-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  // A pipe: the extract arrives only when the test writes it, so "still loading" is certain.
  const fifo = join(folder, 'extract.osm.pbf');
  execFileSync('mkfifo', [fifo]);
  const logs: string[] = [];
  const map = await startOfflineMap(t, fifo, logs);
  const distance = await withPatience(map.ok('straight_line_distance', { from: '43.7307,7.4253', to: '43.7394,7.4275' }));
  const link = await withPatience(map.ok('map_link', { from: '43.7307,7.4253', to: '43.7394,7.4275', profile: 'car' }));
  const geocoded = map.ok('geocode', { query: KNOWN_PLACES.stadium.query });
  t.notOk(
    logs.some((line) => /offline map: loaded/.test(line)),
    'nothing of the extract has been read',
  );
  await pipeline(createReadStream(MONACO_PBF), createWriteStream(fifo));
  t.match(distance, { distance_m: Number, formula: /haversine/ }, 'straight_line_distance with coordinates answered at once');
  t.match(link, { kind: 'directions', url: /^https:\/\/www\.openstreetmap\.org\/directions/ }, 'map_link with coordinates answered at once');
  t.match(await geocoded, { results: [{ label: 'Stade Louis II' }] }, 'a tool that needs the map waited for it');
});

t.test('the standalone map-server loads the extract at start too, logging to standard error', async (t) => {
  const child = spawn(process.execPath, [CLI], { env: { ...process.env, MAP_OSM_FILE: MONACO_PBF }, stdio: ['pipe', 'ignore', 'pipe'] });
  t.teardown(() => child.kill('SIGTERM'));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  t.ok(await eventually(() => (LOADED.test(stderr) ? true : undefined)), 'loaded with no request on stdin');
});

t.test('an extract that cannot be read fails start-up with the cause', async (t) => {
  t.throws(() => createMapRuntime({ MAP_OSM_FILE: '/nonexistent/extract.osm.pbf' }, () => {}), {
    code: 'HUB_ERR_MAP_EXTRACT_UNREADABLE',
    message: /MAP_OSM_FILE: cannot read "\/nonexistent\/extract\.osm\.pbf" \(ENOENT\)/,
  });
  const logs: string[] = [];
  const runtime = createMapRuntime({ MAP_OSM_FILE: fileURLToPath(import.meta.url) }, (line) => logs.push(line));
  const failures: unknown[] = [];
  runtime.start((error) => failures.push(error));
  await t.rejects(runtime.providers(), { code: 'HUB_ERR_MAP_EXTRACT_INVALID' }, 'a file that is no extract fails when loaded');
  t.match(failures[0], { code: 'HUB_ERR_MAP_EXTRACT_INVALID' }, 'and the start reports it');
});

t.test('large extracts log their progress', async (t) => {
  const lines: string[] = [];
  await OfflineMap.load(MONACO_PBF, { log: (line) => lines.push(line), progressFromBytes: 0 });
  const progress = lines.filter((line) => /^offline map: read \d0% of .*monaco\.osm\.pbf \(\d+ nodes so far\)$/.test(line));
  t.ok(progress.length >= 1, 'a line per tenth read (this file has a few large blocks)');
  const quiet: string[] = [];
  await OfflineMap.load(MONACO_PBF, { log: (line) => quiet.push(line) });
  t.equal(quiet.length, 2, 'below the threshold, only the start and the summary');
});
