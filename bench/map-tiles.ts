/**
 * Writes a synthetic extract for the offline map's scale bench: the Monaco extract tiled
 * on a grid (ids offset per tile, coordinates shifted), with a two-way primary road
 * joining each tile to its east and north neighbours so the network is one piece for
 * every profile: each joining road starts and ends at nodes of the largest strongly
 * connected part of the car, foot and bike networks alike (as the offline engine reads
 * them), so a route leaves any tile's main network for any other's.
 *
 * Reads and writes the PBF with Debian's osmium (`apt-get install osmium-tool`); the
 * tiles travel through osmium's OPL text format, so no PBF writer is needed here.
 *
 *   node dist/bench/map-tiles.js [--tiles 12] [--out <file.osm.pbf>] [<source.osm.pbf>]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { OfflineMap } from '../plugins/map-tools/offline/engine.js';
import { E7 } from '../plugins/map-tools/offline/features.js';
import { PROFILES } from '../plugins/map-tools/offline/profiles.js';
import { stronglyConnected } from './road-network.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const MONACO_PBF = resolve(repoRoot, 'test/fixtures/osm/monaco.osm.pbf');

/** Tile k's ids are the source's plus k times this (OSM ids stay far below it). */
const ID_STRIDE = 1e10;
/** Degrees left between tiles, so a tile's border roads do not touch its neighbour's. */
const GAP_DEG = 0.005;

interface Node {
  id: number;
  lon: number;
  lat: number;
  tags: string;
}

interface Source {
  nodes: Node[];
  /** Way and relation lines, as OPL fields after the id. */
  ways: { id: number; tags: string; refs: number[] }[];
  relations: { id: number; tags: string; members: string }[];
}

export interface TiledExtract {
  file: string;
  tiles: number;
  nodes: number;
  /** Tile k is in row `floor(k / columns)` and column `k % columns`, shifted by that many steps north and east. */
  columns: number;
  stepLat: number;
  stepLon: number;
}

async function run(command: string, args: string[]): Promise<void> {
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/** The source extract as OPL lines, without metadata. */
async function readSource(file: string): Promise<Source> {
  const child = spawn('osmium', ['cat', '-f', 'opl,add_metadata=false', file, '-o', '-'], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.on('error', (error) => {
    throw new Error(`osmium is needed to tile the extract (apt-get install osmium-tool): ${error.message}`);
  });
  const source: Source = { nodes: [], ways: [], relations: [] };
  for await (const line of createInterface({ input: child.stdout })) {
    const fields = new Map(line.split(' ').map((field) => [field[0], field.slice(1)]));
    const id = Number(line.slice(1, line.indexOf(' ')));
    const tags = fields.get('T') ?? '';
    if (line[0] === 'n') source.nodes.push({ id, lon: Number(fields.get('x')), lat: Number(fields.get('y')), tags });
    else if (line[0] === 'w')
      source.ways.push({
        id,
        tags,
        refs: (fields.get('N') ?? '')
          .split(',')
          .filter(Boolean)
          .map((ref) => Number(ref.slice(1))),
      });
    else if (line[0] === 'r') source.relations.push({ id, tags, members: fields.get('M') ?? '' });
  }
  return source;
}

/**
 * Nodes where a joining road may start: vertices of the largest strongly connected part of
 * the network of every profile, read by the engine itself, so the profiles' own rules
 * (one-way streets, access, road classes) decide. A vertex is found among the nodes by its
 * position; a position two nodes share is left out.
 */
async function joinableNodes(file: string, source: Source): Promise<Node[]> {
  const { graph } = await OfflineMap.load(file);
  const largest = PROFILES.map((profile) => {
    const { component, sizes } = stronglyConnected(graph, profile);
    const biggest = sizes.indexOf(Math.max(...sizes));
    return (vertex: number) => component[vertex] === biggest;
  });
  const position = (lat: number, lon: number) => `${Math.round(lat * E7)},${Math.round(lon * E7)}`;
  const byPosition = new Map<string, Node | undefined>();
  for (const node of source.nodes) {
    const key = position(node.lat, node.lon);
    byPosition.set(key, byPosition.has(key) ? undefined : node);
  }
  const joints: Node[] = [];
  for (let vertex = 0; vertex < graph.vertexCount; vertex++) {
    if (!largest.every((inLargest) => inLargest(vertex))) continue;
    const node = byPosition.get(position(graph.vertexLat[vertex]!, graph.vertexLon[vertex]!));
    if (node) joints.push(node);
  }
  if (joints.length === 0) throw new Error(`${file} has no node in the main network of every profile to join tiles at`);
  return joints;
}

/** Writes `tiles` copies of the source into `out`; returns how many nodes it holds. */
export async function writeTiledExtract(sourceFile: string, out: string, tiles: number): Promise<TiledExtract> {
  const source = await readSource(sourceFile);
  const box = { south: Infinity, north: -Infinity, west: Infinity, east: -Infinity };
  for (const node of source.nodes) {
    box.south = Math.min(box.south, node.lat);
    box.north = Math.max(box.north, node.lat);
    box.west = Math.min(box.west, node.lon);
    box.east = Math.max(box.east, node.lon);
  }
  const stepLat = box.north - box.south + GAP_DEG;
  const stepLon = box.east - box.west + GAP_DEG;
  const columns = Math.ceil(Math.sqrt(tiles));

  const joints = await joinableNodes(sourceFile, source);
  const nearest = (lat: number, lon: number) => joints.reduce((best, node) => (Math.hypot(node.lat - lat, node.lon - lon) < Math.hypot(best.lat - lat, best.lon - lon) ? node : best));
  const middleLat = (box.south + box.north) / 2;
  const middleLon = (box.west + box.east) / 2;
  const east = nearest(middleLat, box.east);
  const west = nearest(middleLat, box.west);
  const north = nearest(box.north, middleLon);
  const south = nearest(box.south, middleLon);

  const work = await mkdtemp(join(tmpdir(), 'map-tiles-'));
  try {
    const opl = join(work, 'tiles.opl');
    const output = createWriteStream(opl);
    const write = async (line: string) => {
      if (!output.write(`${line}\n`)) await once(output, 'drain');
    };
    const offset = (tile: number, id: number) => tile * ID_STRIDE + id;
    // Objects go out by type, then tile, then id: sorted, as extracts normally are.
    for (let tile = 0; tile < tiles; tile++) {
      const shiftLat = Math.floor(tile / columns) * stepLat;
      const shiftLon = (tile % columns) * stepLon;
      for (const node of source.nodes) {
        await write(`n${offset(tile, node.id)} T${node.tags} x${(node.lon + shiftLon).toFixed(7)} y${(node.lat + shiftLat).toFixed(7)}`);
      }
    }
    for (let tile = 0; tile < tiles; tile++) {
      for (const way of source.ways) await write(`w${offset(tile, way.id)} T${way.tags} N${way.refs.map((ref) => `n${offset(tile, ref)}`).join(',')}`);
    }
    let joining = tiles * ID_STRIDE;
    for (let tile = 0; tile < tiles; tile++) {
      const neighbours = [];
      if (tile % columns < columns - 1 && tile + 1 < tiles) neighbours.push({ from: east, to: west, tile: tile + 1 });
      if (tile + columns < tiles) neighbours.push({ from: north, to: south, tile: tile + columns });
      for (const { from, to, tile: next } of neighbours) {
        await write(`w${joining++} Thighway=primary,name=Tile%20%link Nn${offset(tile, from.id)},n${offset(next, to.id)}`);
      }
    }
    for (let tile = 0; tile < tiles; tile++) {
      for (const relation of source.relations) {
        const members = relation.members
          .split(',')
          .filter(Boolean)
          .map((member) => `${member[0]}${offset(tile, Number(member.slice(1, member.indexOf('@'))))}${member.slice(member.indexOf('@'))}`);
        await write(`r${offset(tile, relation.id)} T${relation.tags} M${members.join(',')}`);
      }
    }
    output.end();
    await once(output, 'close');
    await run('osmium', ['cat', opl, '-o', out, '--overwrite', '--no-progress']);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { file: out, tiles, nodes: tiles * source.nodes.length, columns, stepLat, stepLon };
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tiles = Number(option('--tiles') ?? 12);
  const out = option('--out') ?? join(tmpdir(), `monaco-tiled-${tiles}.osm.pbf`);
  const positional = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const result = await writeTiledExtract(positional[0] ?? MONACO_PBF, out, tiles);
  console.log(`wrote ${result.file}: ${result.tiles} tiles, ${result.nodes} nodes`);
}
