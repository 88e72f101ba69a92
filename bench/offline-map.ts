/**
 * Figures for the offline map engine on one extract (default: the Monaco test extract):
 * load and index time and rate, memory after loading (RSS, and per node read), route
 * latency per profile over random pairs, 12x12 matrices and a 15-minute foot isochrone.
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

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const json = process.argv.includes('--json');
const loadsArgument = process.argv.indexOf('--loads');
const loads = loadsArgument < 0 ? 1 : Math.max(1, Number(process.argv[loadsArgument + 1]));
const file = process.argv.slice(2).find((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--loads') ?? resolve(repoRoot, '../shared/data/monaco.osm.pbf');
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
const vertexPoint = () => {
  const v = Math.floor(next() * map.graph.vertexCount);
  return { lat: map.graph.vertexLat[v]!, lon: map.graph.vertexLon[v]! };
};
for (const profile of PROFILES) {
  const times: number[] = [];
  let found = 0;
  for (let i = 0; i < PAIRS; i++) {
    const a = vertexPoint();
    const b = vertexPoint();
    const t0 = performance.now();
    if (map.route([a, b], profile, { steps: false, language: 'en' })) found++;
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  figures[`route ${profile}`] = { p50Ms: round(percentile(times, 0.5)), p99Ms: round(percentile(times, 0.99)), routable: found, pairs: PAIRS };
}
for (const profile of PROFILES) {
  const times: number[] = [];
  let cells = 0;
  for (let i = 0; i < MATRICES; i++) {
    const stops = Array.from({ length: 12 }, vertexPoint);
    const t0 = performance.now();
    cells += map.table(stops, stops, profile).flat().filter((cell) => cell !== undefined).length;
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  figures[`matrix ${profile}`] = { p50Ms: round(percentile(times, 0.5), 1), routableShare: round(cells / (144 * MATRICES)) };
}
const centre = vertexPoint();
const t0 = performance.now();
const isochrone = map.isochrone(centre, 'foot', { seconds: 15 * 60 });
figures.isochroneMs = round(performance.now() - t0, 1);
figures.isochroneReachM = Math.round(Math.max(0, ...Object.values(isochrone?.reachM ?? {})));

if (json) console.log(JSON.stringify(figures));
else {
  console.log(`file: ${file}`);
  console.log(`load and index: ${figures.loadMs} ms (fastest of ${loadTimes.map(Math.round).join(', ')}), ${figures.nodesPerSecond} nodes/s (${map.stats.nodes} nodes, ${map.stats.ways} ways, ${map.stats.vertices} vertices, ${map.stats.edges} edges)`);
  console.log(`RSS after loading: ${figures.rssMb} MB (${figures.bytesPerNode} bytes per node read; ${figures.baselineRssMb} MB before loading; peak ${figures.peakRssMb} MB)`);
  for (const profile of PROFILES) {
    const route = figures[`route ${profile}`] as { p50Ms: number; p99Ms: number; routable: number };
    console.log(`route ${profile}: p50 ${route.p50Ms} ms, p99 ${route.p99Ms} ms over ${PAIRS} random pairs (${route.routable} routable)`);
  }
  for (const profile of PROFILES) {
    const matrix = figures[`matrix ${profile}`] as { p50Ms: number; routableShare: number };
    console.log(`12x12 matrix ${profile}: p50 ${matrix.p50Ms} ms over ${MATRICES} matrices (${Math.round(matrix.routableShare * 100)}% of cells routable)`);
  }
  console.log(`15-minute foot isochrone: ${figures.isochroneMs} ms (farthest reach ${figures.isochroneReachM} m)`);
}
