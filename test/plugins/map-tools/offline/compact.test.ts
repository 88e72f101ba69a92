import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOSMStream } from 'osm-pbf-parser-node';
import t from 'tap';
import { haversineM } from '../../../../plugins/map-tools/offline/geo.js';
import { SpatialGrid } from '../../../../plugins/map-tools/offline/grid.js';
import { IdIndex } from '../../../../plugins/map-tools/offline/ids.js';
import { loadExtract, type Extract } from '../../../../plugins/map-tools/offline/load.js';
import { invert } from '../../../../plugins/map-tools/offline/places.js';
import { ProtoReader, readDeltas } from '../../../../plugins/map-tools/offline/protobuf.js';
import { MONACO_PBF } from './extract.js';
import { Proto, writeExtract, type ExtractOptions, type TestNode, type TestRelation, type TestWay } from './pbf-writer.js';

/** A seeded generator in [0, 1) (Park and Miller's), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

const folder = await mkdtemp(join(tmpdir(), 'map-compact-'));
t.teardown(() => rm(folder, { recursive: true, force: true }));
let files = 0;
async function load(elements: Parameters<typeof writeExtract>[1], options: ExtractOptions = {}): Promise<Extract> {
  const file = join(folder, `extract-${files++}.osm.pbf`);
  await writeExtract(file, elements, options);
  return loadExtract(file);
}

t.test('protobuf: varints up to 2^53, zigzag, negative int64, packed deltas', async (t) => {
  const values = [0, 1, 127, 128, 300, 2 ** 31, 2 ** 32 + 5, 2 ** 40 + 3, 2 ** 53 - 1];
  const buf = Buffer.concat(values.map((value) => Proto.varint(value)));
  const reader = new ProtoReader(buf);
  t.same(
    values.map(() => reader.varint()),
    values,
  );
  const signed = [0, -1, 1, -64, 2 ** 31, -(2 ** 31) - 1, -(2 ** 40), 2 ** 45 + 1];
  const zigzag = new ProtoReader(Buffer.concat(signed.map((value) => Proto.varint(Proto.zigzag(value)))));
  t.same(
    signed.map(() => zigzag.svarint()),
    signed,
  );
  const negatives = [-5, -(2 ** 40), 7];
  const plain = new ProtoReader(Buffer.concat(negatives.map((value) => Proto.varint(value < 0 ? BigInt.asUintN(64, BigInt(value)) : value))));
  t.same(
    negatives.map(() => plain.int64()),
    negatives,
    "ten-byte two's complement",
  );
  const sums = [5, 3, 2 ** 35, 2 ** 35 - 7, -12];
  const packed = new Proto().packed(1, sums, { sint: true, delta: true }).toBuffer();
  const field = new ProtoReader(packed);
  field.next();
  const start = field.bytes();
  const out = new Float64Array(10);
  t.equal(readDeltas(packed, start, field.stop, out, 2), 2 + sums.length);
  t.same(Array.from(out.subarray(2, 7)), sums);
  t.throws(() => new ProtoReader(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])).varint(), { code: 'HUB_ERR_MAP_EXTRACT_INVALID' });
});

t.test('IdIndex finds every id, near a hint or not, in file order too, and nothing else', async (t) => {
  const next = random(7);
  const set = new Set<number>();
  // Ids in clusters far apart, as tiles or old and new edits give them.
  while (set.size < 20_000) set.add(Math.floor(next() * 4) * 1e10 + Math.floor(next() * 1e6));
  const ids = Float64Array.from(set).sort();
  const index = new IdIndex(ids);
  let wrong = 0;
  let near = -1;
  ids.forEach((id, position) => {
    const found = index.find(id, near);
    if (found !== position || index.find(id) !== position || index.position(found) !== position) wrong++;
    near = Math.floor(next() * 2) === 0 ? found : Math.floor(next() * ids.length);
  });
  t.equal(wrong, 0, 'every id at its position');
  const shuffled = Float64Array.from(ids).sort((a, b) => ((a * 7919) % 1000) - ((b * 7919) % 1000));
  const unsorted = new IdIndex(shuffled);
  t.ok(
    shuffled.every((id, position) => unsorted.position(unsorted.find(id)) === position),
    'unsorted ids give their file positions',
  );
  let phantom = 0;
  for (let i = 0; i < 5000; i++) {
    const id = Math.floor(next() * 4) * 1e10 + Math.floor(next() * 1e6) + 0.5;
    if (index.find(id, Math.floor(next() * ids.length)) !== -1) phantom++;
  }
  t.equal(phantom, 0, 'absent ids are not found');
  t.equal(new IdIndex(new Float64Array(0)).find(1), -1);
});

t.test('SpatialGrid visits every item within the radius, over a sparse extent', async (t) => {
  const next = random(11);
  // Two towns a continent apart: the grid stores only their cells.
  const boxes: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const [lat, lon] = i % 2 === 0 ? [43.7 + next() * 0.05, 7.4 + next() * 0.05] : [60.1 + next() * 0.05, 24.9 + next() * 0.05];
    const size = next() < 0.3 ? next() * 0.004 : 0;
    boxes.push(lat, lon, lat + size, lon + size);
  }
  const grid = SpatialGrid.build(0.001, Float64Array.from(boxes));
  const distanceToBox = (lat: number, lon: number, i: number) =>
    haversineM(lat, lon, Math.min(Math.max(lat, boxes[4 * i]!), boxes[4 * i + 2]!), Math.min(Math.max(lon, boxes[4 * i + 1]!), boxes[4 * i + 3]!));
  let missed = 0;
  for (let q = 0; q < 200; q++) {
    const [lat, lon] = q % 2 === 0 ? [43.7 + next() * 0.06, 7.39 + next() * 0.07] : [60.09 + next() * 0.07, 24.89 + next() * 0.07];
    const radius = 50 + next() * 800;
    const visited = new Set<number>();
    grid.search(lat, lon, radius, (item) => visited.add(item));
    for (let i = 0; i < boxes.length / 4; i++) if (distanceToBox(lat, lon, i) <= radius && !visited.has(i)) missed++;
  }
  t.equal(missed, 0);
  const far = new Set<number>();
  grid.search(0, 0, 1000, (item) => far.add(item));
  t.equal(far.size, 0, 'nothing near a point far from every item');
});

t.test('invert transposes compressed sparse rows, each row once per value', async (t) => {
  const next = random(3);
  const rows: number[][] = Array.from({ length: 500 }, () => Array.from({ length: Math.floor(next() * 6) }, () => Math.floor(next() * 40)));
  const start = new Uint32Array(rows.length + 1);
  rows.forEach((row, r) => (start[r + 1] = start[r]! + row.length));
  const [valueStart, valueRows] = invert(start, Uint32Array.from(rows.flat()), 40);
  for (let value = 0; value < 40; value++) {
    const expected = rows.flatMap((row, r) => (row.includes(value) ? [r] : []));
    t.same(Array.from(valueRows.subarray(valueStart[value], valueStart[value + 1])), expected, `value ${value}`);
  }
});

/** A town in miniature: two streets (one private), a building, an area relation, relations nested in a cycle. */
const TOWN: { nodes: TestNode[]; ways: TestWay[]; relations: TestRelation[] } = {
  nodes: [
    { id: 1, lat: 43.7, lon: 7.4 },
    { id: 2, lat: 43.701, lon: 7.4, tags: { highway: 'crossing' } },
    { id: 3, lat: 43.702, lon: 7.4 },
    { id: 4, lat: 43.702, lon: 7.401 },
    { id: 5, lat: 43.7, lon: 7.402 },
    { id: 6, lat: 43.7005, lon: 7.402 },
    { id: 7, lat: 43.7005, lon: 7.4025 },
    { id: 8, lat: 43.7, lon: 7.4025, tags: { amenity: 'cafe', name: 'Café du Coin', 'addr:housenumber': '3', 'addr:street': 'Rue Haute' } },
    { id: 2 ** 40, lat: 43.71, lon: 7.41, tags: { name: 'Big Id' } },
  ],
  ways: [
    { id: 10, refs: [1, 2, 3, 4], tags: { highway: 'residential', name: 'Rue Haute' } },
    { id: 11, refs: [4, 99, 5], tags: { highway: 'service', access: 'private', name: 'Allée Privée' } },
    { id: 12, refs: [5, 6, 7, 8, 5], tags: { building: 'yes' } },
    { id: 13, refs: [1, 5] },
    { id: 14, refs: [98, 97], tags: { highway: 'path' } },
  ],
  relations: [
    {
      id: 20,
      members: [
        { type: 'way', ref: 13, role: 'outer' },
        { type: 'node', ref: 8 },
      ],
      tags: { type: 'multipolygon', leisure: 'park', name: 'Parc' },
    },
    {
      id: 21,
      members: [
        { type: 'relation', ref: 22 },
        { type: 'node', ref: 1 },
      ],
      tags: { type: 'collection', name: 'Outer' },
    },
    {
      id: 22,
      members: [
        { type: 'relation', ref: 21 },
        { type: 'node', ref: 4 },
      ],
      tags: { type: 'collection', name: 'Inner' },
    },
    { id: 23, members: [{ type: 'way', ref: 96 }], tags: { type: 'route', name: 'Nowhere' } },
  ],
};

function describeTown(extract: Extract) {
  const { features, graph } = extract;
  const all = Array.from({ length: features.count }, (_, f) => ({ id: features.elementId(f), lat: features.lat(f), lon: features.lon(f), tags: features.tagsOf(f) }));
  const roads = Array.from({ length: graph.roadCount }, (_, r) => features.elementId(graph.roadFeature[r]!)).sort();
  return { all, roads, vertices: graph.vertexCount, segments: graph.segmentCount, counts: extract.counts, bounds: extract.bounds };
}

t.test('the loader keeps the tagged elements at their centres and the roads as a graph', async (t) => {
  const extract = await load(TOWN, { bounds: { south: 43.69, west: 7.39, north: 43.72, east: 7.42 } });
  const town = describeTown(extract);
  t.same(town.counts, { nodes: 9, ways: 5, relations: 4 }, 'everything read is counted');
  t.same(town.bounds, { south: 43.69, west: 7.39, north: 43.72, east: 7.42 }, 'the header box');
  t.same(
    town.all.map((feature) => feature.id),
    ['node/2', 'node/8', `node/${2 ** 40}`, 'way/10', 'way/11', 'way/12', 'relation/20', 'relation/21', 'relation/22'],
    'tagged elements with a position, by kind and id: the path and the route have no node in the file',
  );
  const byId = Object.fromEntries(town.all.map((feature) => [feature.id, feature]));
  t.same(byId['node/8']?.tags, TOWN.nodes[7]!.tags, 'tags as written');
  t.match(byId['way/12'], { lat: 43.70025, lon: 7.40225 }, 'a way at the centre of its box');
  t.match(byId['way/11'], { lat: 43.701, lon: 7.4015 }, 'a missing node is skipped');
  t.match(byId['relation/20'], { lat: 43.7, lon: 7.40125 }, 'a relation over its untagged way and its node');
  t.match(byId['relation/21'], { lat: 43.701, lon: 7.4005 }, 'nested relations, each once though they contain each other');
  t.equal(extract.features.find('node', 2 ** 40), 2, 'ids beyond 32 bits');
  t.equal(extract.features.find('node', 1), -1, 'untagged nodes are not features');
  t.same(town.roads, ['way/10', 'way/11'], 'the named private road stays, as an address');
  t.equal(town.vertices, 5, 'only nodes on roads are vertices');
  t.equal(town.segments, 4);
  const closed = extract.graph.roadFirstSegment[extract.graph.roadFeature.indexOf(extract.features.find('way', 11))]!;
  const edge = extract.graph.segmentForward[closed]!;
  t.same([extract.graph.edgeTime.foot[edge], extract.graph.edgeTime.car[edge], extract.graph.edgeTime.bike[edge]], [Infinity, Infinity, Infinity], 'closed to every profile');
  t.ok(extract.graph.edgeTime.foot[extract.graph.segmentForward[0]!]! > 0);
});

t.test('every way of writing the same extract loads the same', async (t) => {
  const reference = describeTown(await load(TOWN));
  t.same(reference.bounds, { south: 43.7, west: 7.4, north: 43.71, east: 7.41 }, 'without a header box, the box of the nodes');
  const shuffle = <T>(items: readonly T[]) => [...items].reverse();
  const variants: [string, Parameters<typeof writeExtract>[1], ExtractOptions][] = [
    ['one element per block', TOWN, { blockSize: 1 }],
    ['raw blobs', TOWN, { compress: false }],
    ['plain nodes', TOWN, { dense: false }],
    ['granularity and offsets', TOWN, { granularity: 1000, latOffset: 1_000_000_000, lonOffset: -2_000_000_000 }],
    ['ids out of order', { nodes: shuffle(TOWN.nodes), ways: shuffle(TOWN.ways), relations: shuffle(TOWN.relations) }, {}],
  ];
  for (const [name, elements, options] of variants) {
    const town = describeTown(await load(elements, options));
    t.same(
      { ...town, all: town.all.map((feature) => ({ ...feature, lat: Number(feature.lat.toFixed(6)), lon: Number(feature.lon.toFixed(6)) })) },
      {
        ...reference,
        all: reference.all.map((feature) => ({ ...feature, lat: Number(feature.lat.toFixed(6)), lon: Number(feature.lon.toFixed(6)) })),
      },
      name,
    );
  }
});

t.test('files the loader cannot read fail with the reason', async (t) => {
  await t.rejects(load(TOWN, { order: ['ways', 'nodes', 'relations'] }), { code: 'HUB_ERR_MAP_EXTRACT_UNSORTED', message: /sort it first/ });
  await t.rejects(load(TOWN, { requiredFeatures: ['OsmSchema-V0.6', 'HistoricalInformation'] }), { code: 'HUB_ERR_MAP_EXTRACT_UNSUPPORTED', message: /"HistoricalInformation"/ });
  const truncated = join(folder, 'truncated.osm.pbf');
  await writeExtract(truncated, TOWN);
  await writeFile(truncated, (await readFile(truncated)).subarray(0, 200));
  await t.rejects(loadExtract(truncated), { code: 'HUB_ERR_MAP_EXTRACT_INVALID', message: /truncated\.osm\.pbf is not a readable OSM PBF extract .*ends in the middle of a block/ });
  const text = join(folder, 'text.osm.pbf');
  await writeFile(text, 'this is not a map');
  await t.rejects(loadExtract(text), { code: 'HUB_ERR_MAP_EXTRACT_INVALID' });
});

t.test('on the Monaco extract the features agree with an independent parser', async (t) => {
  const extract = await loadExtract(MONACO_PBF);
  const { features } = extract;
  const nodes = new Map<number, { lat: number; lon: number }>();
  let checked = 0;
  const problems: string[] = [];
  const expect = (kind: 'node' | 'way', id: number, tags: Record<string, string>, lat: number, lon: number) => {
    const feature = features.find(kind, id);
    if (feature < 0) return void problems.push(`${kind}/${id} missing`);
    checked++;
    if (JSON.stringify(features.tagsOf(feature)) !== JSON.stringify(tags)) problems.push(`${kind}/${id} tags`);
    if (Math.abs(features.lat(feature) - lat) > 1e-7 || Math.abs(features.lon(feature) - lon) > 1e-7) problems.push(`${kind}/${id} position`);
  };
  for await (const item of createOSMStream(MONACO_PBF, { withTags: true, withInfo: false })) {
    const element = item as { type?: string; id: number; lat: number; lon: number; refs: number[]; tags?: Record<string, string> };
    if (element.type === 'node') {
      nodes.set(element.id, { lat: element.lat, lon: element.lon });
      if (element.tags) expect('node', element.id, element.tags, element.lat, element.lon);
    } else if (element.type === 'way' && element.tags) {
      const points = element.refs.flatMap((ref) => nodes.get(ref) ?? []);
      if (points.length === 0) continue;
      const lats = points.map((point) => point.lat);
      const lons = points.map((point) => point.lon);
      expect('way', element.id, element.tags, (Math.min(...lats) + Math.max(...lats)) / 2, (Math.min(...lons) + Math.max(...lons)) / 2);
    }
  }
  t.same(problems, [], 'same tags, positions and centres');
  t.equal(checked, features.kindStart[2], 'every tagged node and way, and no other, is a feature');
  t.equal(extract.counts.nodes, nodes.size);
});
