/**
 * Figures for the offline map engine on one extract (default: the Monaco test extract):
 * load and index time and rate, memory after loading (RSS, and per node read), route
 * latency per profile over random pairs, 12x12 matrices and a 15-minute foot isochrone.
 * Points are drawn from the main road network of each profile (`road-network.ts`: parts
 * of at least 5% of the largest, not the scraps an extract's border cuts off), on
 * segments open both ways; routes and matrices are timed for connected pairs only, and the
 * pairs with no route are counted (none on a network in one piece).
 * `--json` prints the figures as one JSON line instead (`offline-map-scale` reads it).
 * `--loads N` loads the file N times and keeps the fastest (a shared machine's other work
 * slows some loads down); memory is measured after the first.
 *
 *   node --expose-gc dist/bench/offline-map.js [file.osm.pbf] [--json] [--loads N]
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OfflineMap } from '../plugins/map-tools/offline/engine.js';
import { PROFILES } from '../plugins/map-tools/offline/profiles.js';
import { percentile } from './measure.js';
import { mainComponents, stronglyConnected } from './road-network.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const json = process.argv.includes('--json');
const loadsArgument = process.argv.indexOf('--loads');
const loads = loadsArgument < 0 ? 1 : Math.max(1, Number(process.argv[loadsArgument + 1]));
const file = process.argv.slice(2).find((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--loads') ?? resolve(repoRoot, 'test/fixtures/osm/monaco.osm.pbf');
const PAIRS = 1000;
const MATRICES = 21;

/** A small seeded generator, so runs compare like with like. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

globalThis.gc?.();
const baselineRss = process.memoryUsage().rss;
const started = performance.now();
const map = await OfflineMap.load(file);
const loadTimes = [performance.now() - started];
globalThis.gc?.();
const rss = process.memoryUsage().rss;
const peakRss = process.resourceUsage().maxRSS * 1024;
for (let i = 1; i < loads; i++) {
  const again = performance.now();
  await OfflineMap.load(file);
  loadTimes.push(performance.now() - again);
  globalThis.gc?.();
}
const loadMs = Math.min(...loadTimes);
const figures: Record<string, unknown> = {
  file,
  nodes: map.stats.nodes,
  ways: map.stats.ways,
  vertices: map.stats.vertices,
  loadMs: Math.round(loadMs),
  loadTimesMs: loadTimes.map(Math.round),
  nodesPerSecond: Math.round(map.stats.nodes / (loadMs / 1000)),
  rssMb: round(rss / 2 ** 20, 1),
  baselineRssMb: round(baselineRss / 2 ** 20, 1),
  peakRssMb: round(peakRss / 2 ** 20, 1),
  bytesPerNode: Math.round(rss / map.stats.nodes),
  peakBytesPerNode: Math.round(peakRss / map.stats.nodes),
};

const next = random(42);
/** Per profile, the middles of the segments of its main network open both ways: a point there snaps to that segment. */
const mainSegments = Object.fromEntries(
  PROFILES.map((profile) => {
    const g = map.graph;
    const components = stronglyConnected(g, profile);
    const main = mainComponents(components);
    const time = g.edgeTime[profile];
    const segments: number[] = [];
    for (let s = 0; s < g.segmentCount; s++) {
      const open = time[g.segmentForward[s]!]! < Infinity && time[g.segmentBackward[s]!]! < Infinity;
      if (open && main.has(components.component[g.segmentFrom[s]!]!)) segments.push(s);
    }
    return [profile, segments];
  }),
) as Record<(typeof PROFILES)[number], number[]>;
const networkPoint = (profile: (typeof PROFILES)[number]) => {
  const segments = mainSegments[profile];
  const s = segments[Math.floor(next() * segments.length)]!;
  const g = map.graph;
  const [a, b] = [g.segmentFrom[s]!, g.segmentTo[s]!];
  return { lat: (g.vertexLat[a]! + g.vertexLat[b]!) / 2, lon: (g.vertexLon[a]! + g.vertexLon[b]!) / 2 };
};
for (const profile of PROFILES) {
  const times: number[] = [];
  let unroutable = 0;
  for (let i = 0; i < PAIRS; i++) {
    const a = networkPoint(profile);
    const b = networkPoint(profile);
    const t0 = performance.now();
    const route = map.route([a, b], profile, { steps: false, language: 'en' });
    const elapsed = performance.now() - t0;
    if (route) times.push(elapsed);
    else unroutable++;
  }
  times.sort((x, y) => x - y);
  figures[`route ${profile}`] = { p50Ms: round(percentile(times, 0.5)), p99Ms: round(percentile(times, 0.99)), timed: times.length, unroutable, pairs: PAIRS };
}
for (const profile of PROFILES) {
  const times: number[] = [];
  let unroutableCells = 0;
  for (let i = 0; i < MATRICES; i++) {
    const stops = Array.from({ length: 12 }, () => networkPoint(profile));
    const t0 = performance.now();
    const missing = map
      .table(stops, stops, profile)
      .flat()
      .filter((cell) => cell === undefined).length;
    const elapsed = performance.now() - t0;
    if (missing === 0) times.push(elapsed);
    unroutableCells += missing;
  }
  times.sort((x, y) => x - y);
  figures[`matrix ${profile}`] = { p50Ms: round(percentile(times, 0.5), 1), timed: times.length, matrices: MATRICES, unroutableCells };
}
const centre = networkPoint('foot');
const t0 = performance.now();
const isochrone = map.isochrone(centre, 'foot', { seconds: 15 * 60 });
figures.isochroneMs = round(performance.now() - t0, 1);
figures.isochroneReachM = Math.round(Math.max(0, ...Object.values(isochrone?.reachM ?? {})));

if (json) console.log(JSON.stringify(figures));
else {
  console.log(`file: ${file}`);
  console.log(
    `load and index: ${figures.loadMs} ms (fastest of ${loadTimes.map(Math.round).join(', ')}), ${figures.nodesPerSecond} nodes/s (${map.stats.nodes} nodes, ${map.stats.ways} ways, ${
      map.stats.vertices
    } vertices, ${map.stats.edges} edges)`,
  );
  console.log(`RSS after loading: ${figures.rssMb} MB (${figures.bytesPerNode} bytes per node read; ${figures.baselineRssMb} MB before loading; peak ${figures.peakRssMb} MB)`);
  for (const profile of PROFILES) {
    const route = figures[`route ${profile}`] as { p50Ms: number; p99Ms: number; timed: number; unroutable: number };
    console.log(`route ${profile}: p50 ${route.p50Ms} ms, p99 ${route.p99Ms} ms over the ${route.timed} connected of ${PAIRS} random pairs on the main network (${route.unroutable} unroutable)`);
  }
  for (const profile of PROFILES) {
    const matrix = figures[`matrix ${profile}`] as { p50Ms: number; timed: number; unroutableCells: number };
    console.log(`12x12 matrix ${profile}: p50 ${matrix.p50Ms} ms over the ${matrix.timed} fully connected of ${MATRICES} matrices (${matrix.unroutableCells} unroutable cells)`);
  }
  console.log(`15-minute foot isochrone: ${figures.isochroneMs} ms (farthest reach ${figures.isochroneReachM} m)`);
}
