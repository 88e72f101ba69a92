/**
 * The connected parts of an offline map's road network, per profile, for the tiler (its
 * joining roads must start in each tile's main network) and the bench (it times routes
 * between points of the main network only, and counts the pairs that have none).
 */
import type { RoadGraph } from '../plugins/map-tools/offline/graph.js';
import type { Profile } from '../plugins/map-tools/offline/profiles.js';

/** A part holding at least this share of the largest one's vertices is part of the main network (a tile's, say), not a scrap cut off at the border. */
export const MAIN_SHARE = 0.05;

export interface Components {
  /** The strongly connected component of each vertex, -1 where no edge open to the profile touches it. */
  component: Int32Array;
  /** Vertices per component. */
  sizes: number[];
}

/** Strongly connected components over the edges open to a profile (Tarjan's algorithm, iterative). */
export function stronglyConnected(graph: RoadGraph, profile: Profile): Components {
  const time = graph.edgeTime[profile];
  const n = graph.vertexCount;
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const component = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const open = new Uint8Array(n);
  for (let e = 0; e < graph.edgeCount; e++) {
    if (time[e]! < Infinity) open[graph.edgeSource[e]!] = open[graph.edgeTarget[e]!] = 1;
  }
  const stack: number[] = [];
  const sizes: number[] = [];
  let counter = 0;
  const frames: { vertex: number; edge: number }[] = [];
  for (let root = 0; root < n; root++) {
    if (order[root]! >= 0 || !open[root]) continue;
    const enter = (vertex: number) => {
      order[vertex] = low[vertex] = counter++;
      stack.push(vertex);
      onStack[vertex] = 1;
      frames.push({ vertex, edge: graph.firstEdge[vertex]! });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const v = frame.vertex;
      if (frame.edge < graph.firstEdge[v + 1]!) {
        const e = frame.edge++;
        if (!(time[e]! < Infinity)) continue;
        const w = graph.edgeTarget[e]!;
        if (order[w]! < 0) enter(w);
        else if (onStack[w]) low[v] = Math.min(low[v]!, order[w]!);
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent.vertex] = Math.min(low[parent.vertex]!, low[v]!);
      if (low[v] !== order[v]) continue;
      let size = 0;
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = 0;
        component[w] = sizes.length;
        size++;
      } while (w !== v);
      sizes.push(size);
    }
  }
  return { component, sizes };
}

/** Which components are the main network: at least `MAIN_SHARE` of the largest. */
export function mainComponents({ sizes }: Components): Set<number> {
  const largest = Math.max(0, ...sizes);
  return new Set(sizes.flatMap((size, c) => (size >= MAIN_SHARE * largest ? [c] : [])));
}
