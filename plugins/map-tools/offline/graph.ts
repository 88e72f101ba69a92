import type { ElementStore } from './elements.js';
import { haversineM } from './geo.js';
import { GridEntries, SpatialGrid } from './grid.js';
import { Growable } from './growable.js';
import { PROFILES, passage, type Profile } from './profiles.js';

/** About 220 m: a few dozen segments per cell in a dense town. */
const SEGMENT_CELL_DEG = 0.002;

/**
 * The routable network shared by all profiles: one vertex per OSM node on a routable
 * way, directed edges in compressed sparse rows (the out-edges of vertex v are
 * `firstEdge[v] .. firstEdge[v + 1]`), and per profile the travel time of each edge in
 * seconds (Infinity where that profile may not go that way). Each undirected segment
 * also knows its two directed edges, for snapping points onto the network.
 */
export class RoadGraph {
  constructor(
    readonly vertexLat: Float64Array,
    readonly vertexLon: Float64Array,
    readonly firstEdge: Uint32Array,
    readonly edgeSource: Int32Array,
    readonly edgeTarget: Int32Array,
    readonly edgeWay: Int32Array,
    readonly edgeLength: Float32Array,
    readonly edgeTime: Readonly<Record<Profile, Float32Array>>,
    /** Fastest speed of any edge per profile in m/s, for an admissible A* heuristic. */
    readonly maxSpeed: Readonly<Record<Profile, number>>,
    readonly segmentFrom: Int32Array,
    readonly segmentTo: Int32Array,
    /** The edge from → to of each segment (it always exists, possibly closed to every profile). */
    readonly segmentForward: Int32Array,
    readonly segmentBackward: Int32Array,
    readonly segments: SpatialGrid,
  ) {}

  get vertexCount(): number {
    return this.vertexLat.length;
  }
  get edgeCount(): number {
    return this.edgeTarget.length;
  }
  get segmentCount(): number {
    return this.segmentFrom.length;
  }
}

export function buildRoadGraph(store: ElementStore): RoadGraph {
  const vertexOfNode = new Int32Array(store.nodeCount).fill(-1);
  const vertexNode = new Growable(Int32Array);
  const segFrom = new Growable(Int32Array);
  const segTo = new Growable(Int32Array);
  const segWay = new Growable(Int32Array);
  const segSpeeds = new Growable(Float64Array);
  const vertex = (node: number) => {
    let v = vertexOfNode[node]!;
    if (v < 0) {
      v = vertexNode.length;
      vertexOfNode[node] = v;
      vertexNode.push(node);
    }
    return v;
  };

  for (let way = 0; way < store.wayCount; way++) {
    const tags = store.tagsOf({ kind: 'way', index: way });
    if (!tags?.highway) continue;
    const passages = PROFILES.map((profile) => passage(tags, profile));
    if (passages.every((p) => p.forward === 0 && p.backward === 0)) continue;
    const start = store.wayOffsets[way]!;
    const end = store.wayOffsets[way + 1]!;
    for (let i = start + 1; i < end; i++) {
      const a = store.wayNodes[i - 1]!;
      const b = store.wayNodes[i]!;
      if (a === b) continue;
      segFrom.push(vertex(a));
      segTo.push(vertex(b));
      segWay.push(way);
      for (const p of passages) {
        segSpeeds.push(p.forward);
        segSpeeds.push(p.backward);
      }
    }
  }

  const nodes = vertexNode.finish();
  const vertexLat = Float64Array.from(nodes, (node) => store.lat(node));
  const vertexLon = Float64Array.from(nodes, (node) => store.lon(node));
  const from = segFrom.finish();
  const to = segTo.finish();
  const ways = segWay.finish();
  const speeds = segSpeeds.finish();
  const vertexCount = nodes.length;
  const segmentCount = from.length;

  const firstEdge = new Uint32Array(vertexCount + 1);
  for (let s = 0; s < segmentCount; s++) {
    firstEdge[from[s]! + 1]!++;
    firstEdge[to[s]! + 1]!++;
  }
  for (let v = 0; v < vertexCount; v++) firstEdge[v + 1]! += firstEdge[v]!;
  const edgeCount = 2 * segmentCount;
  const fill = firstEdge.slice(0, vertexCount);
  const edgeSource = new Int32Array(edgeCount);
  const edgeTarget = new Int32Array(edgeCount);
  const edgeWay = new Int32Array(edgeCount);
  const edgeLength = new Float32Array(edgeCount);
  const edgeTime = { foot: new Float32Array(edgeCount), car: new Float32Array(edgeCount), bike: new Float32Array(edgeCount) };
  const maxSpeed = { foot: 0, car: 0, bike: 0 };
  const segmentForward = new Int32Array(segmentCount);
  const segmentBackward = new Int32Array(segmentCount);
  const entries = new GridEntries();

  for (let s = 0; s < segmentCount; s++) {
    const a = from[s]!;
    const b = to[s]!;
    const aLat = vertexLat[a]!;
    const aLon = vertexLon[a]!;
    const bLat = vertexLat[b]!;
    const bLon = vertexLon[b]!;
    const length = haversineM(aLat, aLon, bLat, bLon);
    const forward = fill[a]!++;
    const backward = fill[b]!++;
    segmentForward[s] = forward;
    segmentBackward[s] = backward;
    edgeSource[forward] = edgeTarget[backward] = a;
    edgeSource[backward] = edgeTarget[forward] = b;
    edgeWay[forward] = edgeWay[backward] = ways[s]!;
    edgeLength[forward] = edgeLength[backward] = length;
    PROFILES.forEach((profile, p) => {
      const forwardKmh = speeds[6 * s + 2 * p]!;
      const backwardKmh = speeds[6 * s + 2 * p + 1]!;
      edgeTime[profile][forward] = forwardKmh > 0 ? length / (forwardKmh / 3.6) : Infinity;
      edgeTime[profile][backward] = backwardKmh > 0 ? length / (backwardKmh / 3.6) : Infinity;
      maxSpeed[profile] = Math.max(maxSpeed[profile], forwardKmh / 3.6, backwardKmh / 3.6);
    });
    entries.add(s, Math.min(aLat, bLat), Math.min(aLon, bLon), Math.max(aLat, bLat), Math.max(aLon, bLon));
  }

  return new RoadGraph(
    vertexLat,
    vertexLon,
    firstEdge,
    edgeSource,
    edgeTarget,
    edgeWay,
    edgeLength,
    edgeTime,
    maxSpeed,
    from,
    to,
    segmentForward,
    segmentBackward,
    SpatialGrid.build(SEGMENT_CELL_DEG, entries),
  );
}
