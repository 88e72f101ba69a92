import { E7 } from './features.js';
import { haversineM } from './geo.js';
import { SpatialGrid } from './grid.js';
import { PROFILES, type Profile } from './profiles.js';

/** About 220 m: a few dozen segments per cell in a dense town. */
const SEGMENT_CELL_DEG = 0.002;

/** The roads as the loader hands them over: node lists into its (temporary) node columns. */
export interface RoadInput {
  /** Latitude and longitude of node i in 1e-7 degrees at `2i` and `2i + 1`. */
  nodeCoords: Int32Array;
  nodeCount: number;
  /** The feature of each road. */
  roadFeature: Int32Array;
  /** The pool number of each road's `name`, -1 when unnamed. */
  roadName: Int32Array;
  /** Road r's nodes are `roadNodes[roadNodeStart[r] .. roadNodeStart[r + 1])`. */
  roadNodeStart: Uint32Array;
  roadNodes: Int32Array;
  /** Per road, per profile (in `PROFILES` order): km/h along and against the node order, 0 where closed. */
  roadSpeeds: Float32Array;
}

/**
 * The road network shared by all profiles: one vertex per node on a road, directed edges
 * in compressed sparse rows (the out-edges of vertex v are `firstEdge[v] .. firstEdge[v + 1]`),
 * and per profile the travel time of each edge in seconds (Infinity where that profile
 * may not go that way). Roads closed to every profile are kept when named, for reverse
 * geocoding. Each undirected segment knows its two directed edges, for snapping; a road's
 * segments are consecutive.
 */
export class RoadGraph {
  constructor(
    readonly vertexLat: Float64Array,
    readonly vertexLon: Float64Array,
    readonly firstEdge: Uint32Array,
    readonly edgeSource: Int32Array,
    readonly edgeTarget: Int32Array,
    readonly edgeRoad: Int32Array,
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
    readonly roadFeature: Int32Array,
    readonly roadName: Int32Array,
    /** Road r's segments are `roadFirstSegment[r] .. roadFirstSegment[r + 1]`. */
    readonly roadFirstSegment: Uint32Array,
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
  get roadCount(): number {
    return this.roadFeature.length;
  }
  /** The road a segment belongs to. */
  segmentRoad(segment: number): number {
    return this.edgeRoad[this.segmentForward[segment]!]!;
  }
}

export function buildRoadGraph(input: RoadInput): RoadGraph {
  const { roadNodeStart, roadNodes, roadSpeeds } = input;
  const roadCount = input.roadFeature.length;
  const vertexOfNode = new Int32Array(input.nodeCount).fill(-1);
  let vertexCount = 0;
  const bound = Math.max(0, roadNodes.length - roadCount);
  const segFrom = new Int32Array(bound);
  const segTo = new Int32Array(bound);
  const segRoad = new Int32Array(bound);
  const roadFirstSegment = new Uint32Array(roadCount + 1);
  let segmentCount = 0;
  for (let road = 0; road < roadCount; road++) {
    roadFirstSegment[road] = segmentCount;
    let previous = -1;
    for (let i = roadNodeStart[road]!; i < roadNodeStart[road + 1]!; i++) {
      const node = roadNodes[i]!;
      let v = vertexOfNode[node]!;
      if (v < 0) v = vertexOfNode[node] = vertexCount++;
      if (previous >= 0 && previous !== v) {
        segFrom[segmentCount] = previous;
        segTo[segmentCount] = v;
        segRoad[segmentCount++] = road;
      }
      previous = v;
    }
  }
  roadFirstSegment[roadCount] = segmentCount;

  const vertexLat = new Float64Array(vertexCount);
  const vertexLon = new Float64Array(vertexCount);
  for (let node = 0; node < input.nodeCount; node++) {
    const v = vertexOfNode[node]!;
    if (v < 0) continue;
    vertexLat[v] = input.nodeCoords[2 * node]! / E7;
    vertexLon[v] = input.nodeCoords[2 * node + 1]! / E7;
  }

  const firstEdge = new Uint32Array(vertexCount + 1);
  for (let s = 0; s < segmentCount; s++) {
    firstEdge[segFrom[s]! + 1]!++;
    firstEdge[segTo[s]! + 1]!++;
  }
  for (let v = 0; v < vertexCount; v++) firstEdge[v + 1]! += firstEdge[v]!;
  const edgeCount = 2 * segmentCount;
  const fill = firstEdge.slice(0, vertexCount);
  const edgeSource = new Int32Array(edgeCount);
  const edgeTarget = new Int32Array(edgeCount);
  const edgeRoad = new Int32Array(edgeCount);
  const edgeLength = new Float32Array(edgeCount);
  const times = PROFILES.map(() => new Float32Array(edgeCount));
  const fastest = PROFILES.map(() => 0);
  const segmentForward = new Int32Array(segmentCount);
  const segmentBackward = new Int32Array(segmentCount);
  const boxes = new Float64Array(4 * segmentCount);

  for (let s = 0; s < segmentCount; s++) {
    const a = segFrom[s]!;
    const b = segTo[s]!;
    const road = segRoad[s]!;
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
    edgeRoad[forward] = edgeRoad[backward] = road;
    edgeLength[forward] = edgeLength[backward] = length;
    for (let p = 0; p < PROFILES.length; p++) {
      const forwardKmh = roadSpeeds[2 * PROFILES.length * road + 2 * p]!;
      const backwardKmh = roadSpeeds[2 * PROFILES.length * road + 2 * p + 1]!;
      times[p]![forward] = forwardKmh > 0 ? length / (forwardKmh / 3.6) : Infinity;
      times[p]![backward] = backwardKmh > 0 ? length / (backwardKmh / 3.6) : Infinity;
      fastest[p] = Math.max(fastest[p]!, forwardKmh / 3.6, backwardKmh / 3.6);
    }
    boxes[4 * s] = Math.min(aLat, bLat);
    boxes[4 * s + 1] = Math.min(aLon, bLon);
    boxes[4 * s + 2] = Math.max(aLat, bLat);
    boxes[4 * s + 3] = Math.max(aLon, bLon);
  }

  const byProfile = <T>(values: readonly T[]) => Object.fromEntries(PROFILES.map((profile, p) => [profile, values[p]!])) as Record<Profile, T>;
  return new RoadGraph(
    vertexLat,
    vertexLon,
    firstEdge,
    edgeSource,
    edgeTarget,
    edgeRoad,
    edgeLength,
    byProfile(times),
    byProfile(fastest),
    segFrom.slice(0, segmentCount),
    segTo.slice(0, segmentCount),
    segmentForward,
    segmentBackward,
    SpatialGrid.build(SEGMENT_CELL_DEG, boxes),
    input.roadFeature,
    input.roadName,
    roadFirstSegment,
  );
}
