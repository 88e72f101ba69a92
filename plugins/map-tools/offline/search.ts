import { haversineM, projectOnSegment } from './geo.js';
import type { RoadGraph } from './graph.js';
import { MinHeap } from './heap.js';
import type { Profile } from './profiles.js';

/** A point placed on the network: on `segment`, at `fraction` of the way from its first vertex to its second. */
export interface Snap {
  segment: number;
  fraction: number;
  /** How far the original point lies from the network, in meters. */
  distanceM: number;
  lat: number;
  lon: number;
}

/** A stretch of one directed edge, from `start` to `end` as fractions of its length. */
export interface Piece {
  edge: number;
  start: number;
  end: number;
}

export interface Path {
  durationS: number;
  distanceM: number;
  pieces: Piece[];
}

export interface Reach {
  /** Travel cost (seconds or meters, as asked) to each settled vertex within the budget. */
  vertices: { vertex: number; cost: number }[];
  /** The farthest points reached part-way along edges that the budget does not cover. */
  frontier: { lat: number; lon: number }[];
}

export type Metric = 'time' | 'distance';

interface Seed {
  vertex: number;
  cost: number;
  length: number;
}

interface Exit {
  vertex: number;
  cost: number;
  length: number;
  piece: Piece;
}

/**
 * Shortest-path searches on a road graph. The working arrays are allocated once and
 * reset lazily by a generation stamp, so a query touches only the vertices it visits.
 * Searches are synchronous, so one instance serves every caller in turn.
 */
export class GraphSearch {
  readonly #cost: Float64Array;
  readonly #length: Float64Array;
  readonly #via: Int32Array;
  readonly #stamp: Uint32Array;
  readonly #settled: Uint32Array;
  #generation = 0;
  readonly #heap = new MinHeap();

  constructor(private readonly graph: RoadGraph) {
    const n = graph.vertexCount;
    this.#cost = new Float64Array(n);
    this.#length = new Float64Array(n);
    this.#via = new Int32Array(n);
    this.#stamp = new Uint32Array(n);
    this.#settled = new Uint32Array(n);
  }

  /** The nearest point of the network the profile may use, within `maxDistanceM`. */
  snap(lat: number, lon: number, profile: Profile, maxDistanceM: number): Snap | undefined {
    const g = this.graph;
    const time = g.edgeTime[profile];
    let best: Snap | undefined;
    g.segments.search(
      lat,
      lon,
      maxDistanceM,
      (segment) => {
        if (time[g.segmentForward[segment]!] === Infinity && time[g.segmentBackward[segment]!] === Infinity) return;
        const a = g.segmentFrom[segment]!;
        const b = g.segmentTo[segment]!;
        const aLat = g.vertexLat[a]!;
        const aLon = g.vertexLon[a]!;
        const bLat = g.vertexLat[b]!;
        const bLon = g.vertexLon[b]!;
        const { fraction, distanceM } = projectOnSegment(lat, lon, aLat, aLon, bLat, bLon);
        if (distanceM > maxDistanceM || (best && distanceM >= best.distanceM)) return;
        best = { segment, fraction, distanceM, lat: aLat + fraction * (bLat - aLat), lon: aLon + fraction * (bLon - aLon) };
      },
      () => best?.distanceM ?? Infinity,
    );
    return best;
  }

  /** The fastest path between two snapped points, or undefined when none exists. */
  route(profile: Profile, from: Snap, to: Snap): Path | undefined {
    const g = this.graph;
    const time = g.edgeTime[profile];
    const exits = this.#exits(to, time);
    let bestPath = this.#direct(from, to, time);
    let bestCost = bestPath?.durationS ?? Infinity;
    const speed = g.maxSpeed[profile];
    const heuristic = (v: number) => haversineM(g.vertexLat[v]!, g.vertexLon[v]!, to.lat, to.lon) / speed;
    let bestExit: Exit | undefined;
    this.#run(
      profile,
      this.#seeds(from, time),
      'time',
      heuristic,
      (vertex, cost) => {
        if (cost >= bestCost) return true;
        for (const exit of exits) {
          if (exit.vertex === vertex && cost + exit.cost < bestCost) {
            bestCost = cost + exit.cost;
            bestExit = exit;
          }
        }
        return false;
      },
      () => bestCost,
    );
    if (bestExit) {
      const pieces = [bestExit.piece];
      let vertex = bestExit.vertex;
      for (let edge = this.#via[vertex]!; edge >= 0; edge = this.#via[vertex]!) {
        pieces.push({ edge, start: 0, end: 1 });
        vertex = this.graph.edgeSource[edge]!;
      }
      pieces.push(...this.#firstPiece(from, vertex));
      pieces.reverse();
      bestPath = { durationS: bestCost, distanceM: this.#length[bestExit.vertex]! + bestExit.length, pieces };
    }
    return bestPath;
  }

  /** Fastest travel times and their distances from one point to many; undefined where unreachable. */
  oneToMany(profile: Profile, from: Snap, targets: readonly (Snap | undefined)[]): ({ durationS: number; distanceM: number } | undefined)[] {
    const time = this.graph.edgeTime[profile];
    const results = targets.map((to) => {
      const direct = to && this.#direct(from, to, time);
      return direct && { durationS: direct.durationS, distanceM: direct.distanceM };
    });
    // Exits by vertex, so settling a vertex costs one lookup rather than a scan of every target.
    const exitsAt = new Map<number, { target: number; exit: Exit }[]>();
    targets.forEach((to, target) => {
      for (const exit of to ? this.#exits(to, time) : []) {
        const list = exitsAt.get(exit.vertex);
        if (list) list.push({ target, exit });
        else exitsAt.set(exit.vertex, [{ target, exit }]);
      }
    });
    const worst = () => results.reduce((max, r, i) => (targets[i] ? Math.max(max, r?.durationS ?? Infinity) : max), 0);
    let bound = worst();
    this.#run(
      profile,
      this.#seeds(from, time),
      'time',
      () => 0,
      (vertex, cost) => {
        const list = exitsAt.get(vertex);
        if (!list) return false;
        for (const { target, exit } of list) {
          const total = cost + exit.cost;
          if (total < (results[target]?.durationS ?? Infinity)) results[target] = { durationS: total, distanceM: this.#length[vertex]! + exit.length };
        }
        bound = worst();
        return false;
      },
      () => bound,
    );
    return results;
  }

  /** Everything reachable from a point within a budget of seconds or meters. */
  reach(profile: Profile, from: Snap, budget: number, metric: Metric): Reach {
    const g = this.graph;
    const time = g.edgeTime[profile];
    const weight = metric === 'time' ? time : g.edgeLength;
    const vertices: { vertex: number; cost: number }[] = [];
    const frontier: { lat: number; lon: number }[] = [];
    const seeds = this.#seeds(from, time).map((seed) => ({ ...seed, cost: metric === 'time' ? seed.cost : seed.length }));
    // The budget may end before the start segment's own ends.
    for (const direction of [g.segmentForward[from.segment]!, g.segmentBackward[from.segment]!]) {
      if (time[direction] === Infinity) continue;
      const start = direction === g.segmentForward[from.segment] ? from.fraction : 1 - from.fraction;
      const full = (1 - start) * weight[direction]!;
      if (full > budget) frontier.push(this.#pointOn(direction, start + (budget / full) * (1 - start)));
    }
    this.#run(
      profile,
      seeds,
      metric,
      () => 0,
      (vertex, cost) => {
        if (cost > budget) return true;
        vertices.push({ vertex, cost });
        const end = g.firstEdge[vertex + 1]!;
        for (let edge = g.firstEdge[vertex]!; edge < end; edge++) {
          if (time[edge] === Infinity) continue;
          const w = weight[edge]!;
          if (cost + w > budget) frontier.push(this.#pointOn(edge, (budget - cost) / w));
        }
        return false;
      },
      () => Infinity,
    );
    return { vertices, frontier };
  }

  /**
   * Dijkstra (A* with a heuristic) from seeded vertices. `settle` is told each vertex
   * once with its final cost and stops the search by returning true; the search also
   * stops once the smallest key reaches `bound()`.
   */
  #run(profile: Profile, seeds: readonly Seed[], metric: Metric, heuristic: (vertex: number) => number, settle: (vertex: number, cost: number) => boolean, bound: () => number): void {
    const g = this.graph;
    const time = g.edgeTime[profile];
    const weight = metric === 'time' ? time : g.edgeLength;
    const cost = this.#cost;
    const length = this.#length;
    const via = this.#via;
    const stamp = this.#stamp;
    const settled = this.#settled;
    const heap = this.#heap;
    const generation = this.#nextGeneration();
    heap.clear();
    for (const seed of seeds) {
      if (stamp[seed.vertex] === generation && cost[seed.vertex]! <= seed.cost) continue;
      stamp[seed.vertex] = generation;
      cost[seed.vertex] = seed.cost;
      length[seed.vertex] = seed.length;
      via[seed.vertex] = -1;
      heap.push(seed.cost + heuristic(seed.vertex), seed.vertex);
    }
    while (heap.size > 0) {
      if (heap.peekKey() >= bound()) return;
      const u = heap.pop();
      if (settled[u] === generation) continue;
      settled[u] = generation;
      const cu = cost[u]!;
      if (settle(u, cu)) return;
      const end = g.firstEdge[u + 1]!;
      for (let edge = g.firstEdge[u]!; edge < end; edge++) {
        const t = time[edge]!;
        if (t === Infinity) continue;
        const v = g.edgeTarget[edge]!;
        const cv = cu + (metric === 'time' ? t : weight[edge]!);
        if (stamp[v] === generation && cv >= cost[v]!) continue;
        stamp[v] = generation;
        cost[v] = cv;
        length[v] = length[u]! + g.edgeLength[edge]!;
        via[v] = edge;
        heap.push(cv + heuristic(v), v);
      }
    }
  }

  #nextGeneration(): number {
    this.#generation += 1;
    if (this.#generation === 0xffffffff) {
      this.#stamp.fill(0);
      this.#settled.fill(0);
      this.#generation = 1;
    }
    return this.#generation;
  }

  /** The segment's end vertices as reached from a snapped start, with the cost of the partial segment. */
  #seeds(from: Snap, time: Float32Array): Seed[] {
    const g = this.graph;
    const forward = g.segmentForward[from.segment]!;
    const backward = g.segmentBackward[from.segment]!;
    const seeds: Seed[] = [];
    if (time[forward]! < Infinity) seeds.push({ vertex: g.segmentTo[from.segment]!, cost: (1 - from.fraction) * time[forward]!, length: (1 - from.fraction) * g.edgeLength[forward]! });
    if (time[backward]! < Infinity) seeds.push({ vertex: g.segmentFrom[from.segment]!, cost: from.fraction * time[backward]!, length: from.fraction * g.edgeLength[backward]! });
    return seeds;
  }

  /** The vertices from which a snapped destination is reached, with the cost of the last partial segment. */
  #exits(to: Snap, time: Float32Array): Exit[] {
    const g = this.graph;
    const forward = g.segmentForward[to.segment]!;
    const backward = g.segmentBackward[to.segment]!;
    const exits: Exit[] = [];
    if (time[forward]! < Infinity) {
      exits.push({ vertex: g.segmentFrom[to.segment]!, cost: to.fraction * time[forward]!, length: to.fraction * g.edgeLength[forward]!, piece: { edge: forward, start: 0, end: to.fraction } });
    }
    if (time[backward]! < Infinity) {
      exits.push({
        vertex: g.segmentTo[to.segment]!,
        cost: (1 - to.fraction) * time[backward]!,
        length: (1 - to.fraction) * g.edgeLength[backward]!,
        piece: { edge: backward, start: 0, end: 1 - to.fraction },
      });
    }
    return exits;
  }

  /** The path along a single segment when both points lie on it and its direction is open. */
  #direct(from: Snap, to: Snap, time: Float32Array): Path | undefined {
    if (from.segment !== to.segment) return undefined;
    const g = this.graph;
    const forward = to.fraction >= from.fraction;
    const edge = forward ? g.segmentForward[from.segment]! : g.segmentBackward[from.segment]!;
    const start = forward ? from.fraction : 1 - from.fraction;
    const end = forward ? to.fraction : 1 - to.fraction;
    const durationS = (end - start) * time[edge]!;
    return durationS < Infinity ? { durationS, distanceM: (end - start) * g.edgeLength[edge]!, pieces: [{ edge, start, end }] } : undefined;
  }

  /** The partial first segment that led from a snapped start to the search's first vertex. */
  #firstPiece(from: Snap, vertex: number): Piece[] {
    const g = this.graph;
    return vertex === g.segmentTo[from.segment]
      ? [{ edge: g.segmentForward[from.segment]!, start: from.fraction, end: 1 }]
      : [{ edge: g.segmentBackward[from.segment]!, start: 1 - from.fraction, end: 1 }];
  }

  #pointOn(edge: number, fraction: number): { lat: number; lon: number } {
    const g = this.graph;
    const source = this.graph.edgeSource[edge]!;
    const target = g.edgeTarget[edge]!;
    return {
      lat: g.vertexLat[source]! + fraction * (g.vertexLat[target]! - g.vertexLat[source]!),
      lon: g.vertexLon[source]! + fraction * (g.vertexLon[target]! - g.vertexLon[source]!),
    };
  }
}
