import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { writeTiledExtract } from '../../../../bench/map-tiles.js';
import { OfflineMap } from '../../../../plugins/map-tools/offline/engine.js';
import { PROFILES } from '../../../../plugins/map-tools/offline/profiles.js';
import { KNOWN_PLACES, MONACO_PBF } from './extract.js';

/**
 * The scale bench's tiled extract (`bench/map-tiles.ts`, written with osmium) is one road
 * network for every profile: a route crosses every seam between neighbouring tiles, both
 * ways, by car, on foot and by bike, along the road that joins them.
 */
const folder = await mkdtemp(join(tmpdir(), 'map-tiles-test-'));
t.teardown(() => rm(folder, { recursive: true, force: true }));
// 2 x 2 tiles: each row has an east-west seam, each column a north-south one.
const tiled = await writeTiledExtract(MONACO_PBF, join(folder, 'tiles.osm.pbf'), 4);
const map = await OfflineMap.load(tiled.file);

const inTile = (place: { lat: number; lon: number }, tile: number) => ({
  lat: place.lat + Math.floor(tile / tiled.columns) * tiled.stepLat,
  lon: place.lon + (tile % tiled.columns) * tiled.stepLon,
});
const seams: [number, number][] = [];
for (let tile = 0; tile < tiled.tiles; tile++) {
  if (tile % tiled.columns < tiled.columns - 1 && tile + 1 < tiled.tiles) seams.push([tile, tile + 1]);
  if (tile + tiled.columns < tiled.tiles) seams.push([tile, tile + tiled.columns]);
}

t.equal(tiled.columns, 2);
t.equal(seams.length, 4, 'four seams between four tiles');

for (const profile of PROFILES) {
  t.test(`${profile} routes cross every seam, both ways`, async (t) => {
    for (const [a, b] of seams) {
      for (const [from, to] of [
        [inTile(KNOWN_PLACES.stadium, a), inTile(KNOWN_PLACES.square, b)],
        [inTile(KNOWN_PLACES.square, b), inTile(KNOWN_PLACES.stadium, a)],
      ] as const) {
        const route = map.route([from, to], profile, { steps: false, language: 'en' });
        t.ok(route, `tile ${a} and tile ${b}: a ${profile} route`);
        const links = route?.legs[0]?.wayIds.filter((id) => map.element('way', id)?.tags.name === 'Tile link') ?? [];
        t.ok(links.length >= 1, `it takes a road joining tiles (${links.length})`);
      }
    }
  });
}
