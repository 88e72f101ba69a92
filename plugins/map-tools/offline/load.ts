import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { MAP_ERROR_CODES } from '../error-codes.js';
import { AreaOutlineBuilder, type AreaOutlines } from './areas.js';
import { E7, FeatureStoreBuilder, type FeatureStore } from './features.js';
import { buildRoadGraph, type RoadGraph } from './graph.js';
import { Growable } from './growable.js';
import { IdIndex } from './ids.js';
import { PASSAGE_KEYS, PROFILES, passage } from './profiles.js';
import { readBlocks } from './decoding.js';
import { BlockStrings, type BlockData, type Bounds, type Tags } from './reader.js';
import { StringPool } from './strings.js';
import { HubError } from '../../../core/plugin/errors.js';

/** Files from this size on get progress lines while they load. */
export const PROGRESS_FROM_BYTES = 50 * 1024 * 1024;

export type Log = (line: string) => void;

export interface LoadOptions {
  log?: Log;
  signal?: AbortSignal;
  /** Files from this size on get a progress line per tenth read (default `PROGRESS_FROM_BYTES`). */
  progressFromBytes?: number;
}

/** What an extract holds once loaded; the untagged nodes and ways are gone by then. */
export interface Extract {
  /** The file's name without its folder, as answers name the extract. */
  name: string;
  /** The area the extract covers: the box its header declares, else the box of its nodes. */
  bounds: Bounds;
  features: FeatureStore;
  graph: RoadGraph;
  /** The closed outlines of boundaries and places drawn as areas. */
  areas: AreaOutlines;
  /** Elements read from the file. */
  counts: { nodes: number; ways: number; relations: number };
}

const NODE = 0;
const WAY = 1;
const RELATION = 2;

/** Reads an extract, keeping only what routing, geocoding and POIs need. */
export async function loadExtract(file: string, options: LoadOptions = {}): Promise<Extract> {
  const log = options.log ?? (() => {});
  options.signal?.throwIfAborted();
  const size = (await stat(file)).size;
  // About 8 bytes a node in a typical extract: size the node columns once (pages never written cost nothing).
  const expectedNodes = Math.ceil(size / 6);
  const builder = new ExtractBuilder(basename(file), expectedNodes);
  let reported = 0;
  await readBlocks(
    file,
    expectedNodes,
    {
      header: (bounds) => builder.header(bounds),
      block: (data) => builder.block(data),
      progress: (bytesRead) => {
        const tenth = size > 0 ? Math.floor((10 * bytesRead) / size) : 0;
        if (size >= (options.progressFromBytes ?? PROGRESS_FROM_BYTES) && tenth > reported && tenth < 10) {
          reported = tenth;
          log(`offline map: read ${tenth * 10}% of ${file} (${builder.nodeCount} nodes so far)`);
        }
      },
    },
    options.signal,
  );
  return builder.finish();
}

/**
 * Builds an extract block by block. Every node's position is held (8 bytes a node; the
 * decoding thread holds the ids) only until the end of the file; what stays is the tagged
 * elements at their centres and the road network's vertices.
 */
class ExtractBuilder {
  readonly #pool = new StringPool();
  readonly #features = new FeatureStoreBuilder(this.#pool);
  readonly #highway = this.#pool.intern('highway');
  readonly #name = this.#pool.intern('name');
  readonly #building = this.#pool.intern('building');
  /** Keys that make an element an area a place can lie in: a boundary, or a place drawn as an area. */
  readonly #areaKeys = new Set(['boundary', 'place'].map((key) => this.#pool.intern(key)));
  #declared: Bounds | undefined;
  #phase = NODE;
  /** A block's string-table index to pool number, -1 until first used. */
  #toPool = new Int32Array(1024);

  /** Latitude and longitude of node i (in file order) at `2i` and `2i + 1`: one cache line serves both. */
  readonly #nodeCoords: Growable<Int32Array>;
  /** The box of every node read, in 1e-7 degrees. */
  readonly #extent = { south: Infinity, west: Infinity, north: -Infinity, east: -Infinity };

  /** Per way in file order: south, west, north, east in 1e-7 degrees (south > north when no node is in the file). */
  readonly #wayBoxes = new Growable(Int32Array, 1 << 16);
  /** The nodes of the way at hand that are in the file. */
  #wayNodes = new Int32Array(1024);
  /**
   * Way w's nodes in the file (positions in file order) are `#allWayNodes[#allWayNodeStart[w] ..]`,
   * kept until the end of the file: relations come last, and a boundary's outline is its
   * member ways. Roads and buildings, nine tenths of the nodes, are left out (empty): a
   * road's nodes are the graph's (`#wayRoad`), and an outline drawn along a building does
   * not close (the area is then known by its point).
   */
  readonly #allWayNodeStart = new Growable(Uint32Array, 1 << 16);
  readonly #allWayNodes = new Growable(Int32Array, 1 << 14);
  /** Per way in file order, its road's number, or -1. */
  readonly #wayRoad = new Growable(Int32Array, 1 << 16);
  readonly #areaOutlines = new AreaOutlineBuilder();

  readonly #roadFeature = new Growable(Int32Array, 1 << 12);
  readonly #roadName = new Growable(Int32Array, 1 << 12);
  readonly #roadNodeStart = new Growable(Uint32Array, 1 << 12);
  readonly #roadNodes = new Growable(Int32Array, 1 << 16);
  readonly #roadSpeeds = new Growable(Float32Array, 1 << 14);
  readonly #passageKeys = new Set(PASSAGE_KEYS.map((key) => this.#pool.intern(key)));
  readonly #passageCache = new Map<string, Float32Array>();

  readonly #relationIds = new Growable(Float64Array, 256);
  readonly #memberStart = new Growable(Uint32Array, 256);
  readonly #memberKinds = new Growable(Uint8Array, 1024);
  /** A node's or way's position, or for a relation member its id. */
  readonly #memberRefs = new Growable(Float64Array, 1024);
  /** Tagged relations wait for the end of the file, when their members' boxes are known. */
  readonly #taggedRelations: { relation: number; tags: Uint32Array }[] = [];

  constructor(
    readonly name: string,
    /** Nodes expected, to size the node columns once rather than grow them. */
    expectedNodes: number,
  ) {
    this.#nodeCoords = new Growable(Int32Array, 2 * Math.max(1 << 16, expectedNodes));
    this.#roadNodeStart.push(0);
    this.#memberStart.push(0);
    this.#allWayNodeStart.push(0);
  }

  get nodeCount(): number {
    return this.#nodeCoords.length / 2;
  }

  header(bounds: Bounds | undefined): void {
    this.#declared = bounds;
  }

  block(data: BlockData): void {
    const strings = new BlockStrings(data);
    if (this.#toPool.length < strings.count) this.#toPool = new Int32Array(strings.count * 2);
    this.#toPool.fill(-1, 0, strings.count);
    if (data.nodes.ids.length > 0) this.#nodes(data, strings);
    if (data.ways.ids.length > 0) this.#ways(data, strings);
    if (data.relations.ids.length > 0) this.#relations(data, strings);
  }

  #poolId(strings: BlockStrings, index: number): number {
    let id = this.#toPool[index]!;
    if (id < 0) {
      id = this.#pool.intern(strings.get(index));
      this.#toPool[index] = id;
    }
    return id;
  }

  /** Appends an element's tags, as pool numbers, to `into`. */
  #copyTags(strings: BlockStrings, tags: Uint32Array, start: number, end: number, into: Growable<Uint32Array>): void {
    let at = into.length;
    const out = into.data.length >= at + end - start ? into.data : into.ensure(end - start);
    const toPool = this.#toPool;
    for (let i = start; i < end; i++) {
      const index = tags[i]!;
      const id = toPool[index]!;
      out[at++] = id >= 0 ? id : this.#poolId(strings, index);
    }
    into.length = at;
  }

  /**
   * Speeds along and against each profile, worked out once per distinct set of the tags
   * they depend on: most ways of a class share them.
   */
  #passages(pooled: Uint32Array): Float32Array {
    const relevant: number[] = [];
    for (let i = 0; i < pooled.length; i += 2) if (this.#passageKeys.has(pooled[i]!)) relevant.push(pooled[i]!, pooled[i + 1]!);
    const signature = relevant.join(',');
    let passages = this.#passageCache.get(signature);
    if (!passages) {
      const tags: Tags = {};
      for (let i = 0; i < relevant.length; i += 2) tags[this.#pool.get(relevant[i]!)] = this.#pool.get(relevant[i + 1]!);
      passages = Float32Array.from(
        PROFILES.flatMap((profile) => {
          const { forward, backward } = passage(tags, profile);
          return [forward, backward];
        }),
      );
      this.#passageCache.set(signature, passages);
    }
    return passages;
  }

  #enter(phase: number): void {
    if (phase < this.#phase) throw new HubError(MAP_ERROR_CODES.EXTRACT_UNSORTED, 'the file is not ordered nodes, then ways, then relations; sort it first (osmium sort)');
    this.#phase = phase;
  }

  #nodes(data: BlockData, strings: BlockStrings): void {
    this.#enter(NODE);
    const { ids, lat, lon, tagStart, tags } = data.nodes;
    const count = ids.length;
    const base = this.nodeCount;
    const coords = this.#nodeCoords.ensure(2 * count);
    const extent = this.#extent;
    let { south, west, north, east } = extent;
    for (let i = 0; i < count; i++) {
      const y = lat[i]!;
      const x = lon[i]!;
      coords[2 * (base + i)] = y;
      coords[2 * (base + i) + 1] = x;
      if (y < south) south = y;
      if (y > north) north = y;
      if (x < west) west = x;
      if (x > east) east = x;
    }
    Object.assign(extent, { south, west, north, east });
    this.#nodeCoords.length = 2 * (base + count);
    for (let i = 0; i < count; i++) {
      if (tagStart[i + 1] === tagStart[i]) continue;
      this.#features.add(NODE, ids[i]!, lat[i]!, lon[i]!);
      this.#copyTags(strings, tags, tagStart[i]!, tagStart[i + 1]!, this.#features.tags);
    }
  }

  #ways(data: BlockData, strings: BlockStrings): void {
    this.#enter(WAY);
    const { ids, refStart, tagStart, tags, nodes: positions } = data.ways;
    const count = ids.length;
    const coords = this.#nodeCoords.data;
    const highway = this.#highway;
    const boxes = this.#wayBoxes.ensure(4 * count);
    let at = this.#wayBoxes.length / 4;
    for (let w = 0; w < count; w++, at++) {
      // Extracts cut ways at their border: references to nodes outside the file are dropped.
      if (this.#wayNodes.length < refStart[w + 1]! - refStart[w]!) this.#wayNodes = new Int32Array(2 * (refStart[w + 1]! - refStart[w]!));
      const resolved = this.#wayNodes;
      let south = Infinity;
      let west = Infinity;
      let north = -Infinity;
      let east = -Infinity;
      let n = 0;
      for (let r = refStart[w]!; r < refStart[w + 1]!; r++) {
        const node = positions[r]!;
        if (node < 0) continue;
        resolved[n++] = node;
        const y = coords[2 * node]!;
        const x = coords[2 * node + 1]!;
        if (y < south) south = y;
        if (y > north) north = y;
        if (x < west) west = x;
        if (x > east) east = x;
      }
      boxes[4 * at] = n > 0 ? south : 1;
      boxes[4 * at + 1] = n > 0 ? west : 0;
      boxes[4 * at + 2] = n > 0 ? north : 0;
      boxes[4 * at + 3] = n > 0 ? east : 0;
      if (n === 0 || tagStart[w + 1] === tagStart[w]) {
        this.#keepLine(resolved.subarray(0, n), -1);
        continue;
      }
      const feature = this.#features.add(WAY, ids[w]!, Math.round((south + north) / 2), Math.round((west + east) / 2));
      const first = this.#features.tags.length;
      this.#copyTags(strings, tags, tagStart[w]!, tagStart[w + 1]!, this.#features.tags);
      const pooled = this.#features.tags.data;
      let isRoad = false;
      let isBuilding = false;
      let isArea = false;
      let name = -1;
      for (let i = first; i < this.#features.tags.length; i += 2) {
        if (pooled[i] === highway) isRoad = true;
        else if (pooled[i] === this.#name) name = pooled[i + 1]!;
        else if (pooled[i] === this.#building) isBuilding = true;
        else if (this.#areaKeys.has(pooled[i]!)) isArea = true;
      }
      const road = isRoad && n > 1 ? this.#road(feature, name, pooled.subarray(first, this.#features.tags.length), resolved.subarray(0, n)) : -1;
      this.#keepLine(isRoad || isBuilding ? resolved.subarray(0, 0) : resolved.subarray(0, n), road);
      if (isArea && !isRoad) this.#areaOutlines.add(feature, [resolved.subarray(0, n)], coords);
    }
    this.#wayBoxes.length = 4 * at;
  }

  /** Records a way's nodes (empty for roads and buildings) and its road's number, in file order. */
  #keepLine(nodes: Int32Array, road: number): void {
    this.#allWayNodes.ensure(nodes.length).set(nodes, this.#allWayNodes.length);
    this.#allWayNodes.length += nodes.length;
    this.#allWayNodeStart.push(this.#allWayNodes.length);
    this.#wayRoad.push(road);
  }

  /**
   * A highway becomes a road of the graph when some profile may use it, or when it is named
   * (it is still an address). Returns the road's number, or -1 when it does not become one.
   */
  #road(feature: number, name: number, pooled: Uint32Array, nodes: Int32Array): number {
    const passages = this.#passages(pooled);
    if (!passages.some((speed) => speed > 0) && name < 0) return -1;
    const at = this.#roadSpeeds.length;
    this.#roadSpeeds.ensure(passages.length).set(passages, at);
    this.#roadSpeeds.length = at + passages.length;
    this.#roadFeature.push(feature);
    this.#roadName.push(name);
    const stored = this.#roadNodes.ensure(nodes.length);
    stored.set(nodes, this.#roadNodes.length);
    this.#roadNodes.length += nodes.length;
    this.#roadNodeStart.push(this.#roadNodes.length);
    return this.#roadFeature.length - 1;
  }

  #relations(data: BlockData, strings: BlockStrings): void {
    this.#enter(RELATION);
    const { ids, memberStart, memberKinds, memberIds, tagStart, tags: relationTags, positions } = data.relations;
    for (let r = 0; r < ids.length; r++) {
      const relation = this.#relationIds.length;
      this.#relationIds.push(ids[r]!);
      for (let m = memberStart[r]!; m < memberStart[r + 1]!; m++) {
        this.#memberKinds.push(memberKinds[m]!);
        this.#memberRefs.push(memberKinds[m] === RELATION ? memberIds[m]! : positions[m]!);
      }
      this.#memberStart.push(this.#memberRefs.length);
      if (tagStart[r + 1] === tagStart[r]) continue;
      const tags = new Growable(Uint32Array, tagStart[r + 1]! - tagStart[r]!);
      this.#copyTags(strings, relationTags, tagStart[r]!, tagStart[r + 1]!, tags);
      this.#taggedRelations.push({ relation, tags: tags.view() });
    }
  }

  /** A relation's box from its members' (nested relations included, each once: they may form cycles). */
  #relationBox(relation: number, box: { south: number; west: number; north: number; east: number }, seen: Set<number>, relations: IdIndex): void {
    seen.add(relation);
    const extend = (south: number, west: number, north: number, east: number) => {
      if (south > north) return;
      box.south = Math.min(box.south, south);
      box.west = Math.min(box.west, west);
      box.north = Math.max(box.north, north);
      box.east = Math.max(box.east, east);
    };
    const coords = this.#nodeCoords.data;
    const boxes = this.#wayBoxes.data;
    for (let m = this.#memberStart.data[relation]!; m < this.#memberStart.data[relation + 1]!; m++) {
      const ref = this.#memberRefs.data[m]!;
      const kind = this.#memberKinds.data[m]!;
      if (kind === NODE) {
        if (ref >= 0) extend(coords[2 * ref]!, coords[2 * ref + 1]!, coords[2 * ref]!, coords[2 * ref + 1]!);
      } else if (kind === WAY) {
        if (ref >= 0) extend(boxes[4 * ref]!, boxes[4 * ref + 1]!, boxes[4 * ref + 2]!, boxes[4 * ref + 3]!);
      } else {
        const found = relations.find(ref);
        const nested = found < 0 ? -1 : relations.position(found);
        if (nested >= 0 && !seen.has(nested)) this.#relationBox(nested, box, seen, relations);
      }
    }
  }

  /** The node lists of a relation's member ways; a member missing from the file is an empty line (the outline does not close). */
  #memberLines(relation: number): Int32Array[] {
    const lines: Int32Array[] = [];
    const start = this.#allWayNodeStart.data;
    for (let m = this.#memberStart.data[relation]!; m < this.#memberStart.data[relation + 1]!; m++) {
      if (this.#memberKinds.data[m] !== WAY) continue;
      const way = this.#memberRefs.data[m]!;
      const road = way < 0 ? -1 : this.#wayRoad.data[way]!;
      if (road >= 0) lines.push(this.#roadNodes.data.subarray(this.#roadNodeStart.data[road], this.#roadNodeStart.data[road + 1]));
      else lines.push(way < 0 ? new Int32Array([-1, -2]) : this.#allWayNodes.data.subarray(start[way], start[way + 1]));
    }
    return lines;
  }

  finish(): Extract {
    this.#enter(RELATION);
    const relationIds = this.#relationIds.view();
    const relations = new IdIndex(relationIds);
    for (const { relation, tags } of this.#taggedRelations) {
      const box = { south: Infinity, west: Infinity, north: -Infinity, east: -Infinity };
      this.#relationBox(relation, box, new Set(), relations);
      if (box.south > box.north) continue;
      const feature = this.#features.add(RELATION, relationIds[relation]!, Math.round((box.south + box.north) / 2), Math.round((box.west + box.east) / 2));
      this.#features.tags.ensure(tags.length).set(tags, this.#features.tags.length);
      this.#features.tags.length += tags.length;
      if (tags.some((value, i) => i % 2 === 0 && this.#areaKeys.has(value))) this.#areaOutlines.add(feature, this.#memberLines(relation), this.#nodeCoords.data);
    }
    const { store, position } = this.#features.finish();
    const roadFeature = this.#roadFeature.finish();
    if (position) roadFeature.forEach((feature, road) => (roadFeature[road] = position[feature]!));
    const graph = buildRoadGraph({
      nodeCoords: this.#nodeCoords.data,
      nodeCount: this.nodeCount,
      roadFeature,
      roadName: this.#roadName.finish(),
      roadNodeStart: this.#roadNodeStart.finish(),
      roadNodes: this.#roadNodes.view(),
      roadSpeeds: this.#roadSpeeds.view(),
    });
    const extent = this.#extent;
    const bounds =
      this.#declared ??
      (extent.south <= extent.north ? { south: extent.south / E7, west: extent.west / E7, north: extent.north / E7, east: extent.east / E7 } : { south: 0, west: 0, north: 0, east: 0 });
    return {
      name: this.name,
      bounds,
      features: store,
      graph,
      areas: this.#areaOutlines.finish(position),
      counts: { nodes: this.nodeCount, ways: this.#wayBoxes.length / 4, relations: this.#relationIds.length },
    };
  }
}
