/**
 * Figures for the offline map engine on an extract (default: the Monaco test extract):
 * load and index time, RSS after loading, route latency per profile over random pairs,
 * a 12x12 matrix and a 15-minute foot isochrone.
 *
 *   node dist/bench/offline-map.js [file.osm.pbf]
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OfflineMap } from '../plugins/map-tools/offline/engine.js';
import { PROFILES } from '../plugins/map-tools/offline/profiles.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const file = process.argv[2] ?? resolve(repoRoot, '../shared/data/monaco.osm.pbf');
const PAIRS = 1000;

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

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const started = performance.now();
const map = await OfflineMap.load(file);
const loadMs = performance.now() - started;
globalThis.gc?.();
const rssMb = process.memoryUsage().rss / 2 ** 20;
console.log(`file: ${file}`);
console.log(`load and index: ${loadMs.toFixed(0)} ms (${map.stats.nodes} nodes, ${map.stats.ways} ways, ${map.stats.vertices} vertices, ${map.stats.edges} edges)`);
console.log(`RSS after loading: ${rssMb.toFixed(0)} MB`);

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
  console.log(`route ${profile}: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms over ${PAIRS} random pairs (${found} routable)`);
}

const stops = Array.from({ length: 12 }, vertexPoint);
for (const profile of PROFILES) {
  const t0 = performance.now();
  const table = map.table(stops, stops, profile);
  const cells = table.flat().filter((cell) => cell !== undefined).length;
  console.log(`12x12 matrix ${profile}: ${(performance.now() - t0).toFixed(1)} ms (${cells} of 144 cells routable)`);
}

const centre = { lat: 43.7307, lon: 7.4253 };
const t0 = performance.now();
const isochrone = map.isochrone(centre, 'foot', { seconds: 15 * 60 });
const reach = isochrone ? Object.entries(isochrone.reachM).map(([d, m]) => `${d} ${m.toFixed(0)}`).join(', ') : 'none';
console.log(`15-minute foot isochrone: ${(performance.now() - t0).toFixed(1)} ms (reach m: ${reach})`);
