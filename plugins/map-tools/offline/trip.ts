/** Up to this many stops the order is exact (Held-Karp); above, nearest neighbour plus 2-opt. */
export const EXACT_TRIP_LIMIT = 10;

/**
 * The cheapest visiting order over a cost matrix (Infinity where no route exists),
 * starting at stop 0, returning to it for a round trip or else ending at the last stop.
 * Undefined when no finite order exists.
 */
export function solveTrip(costs: readonly (readonly number[])[], roundtrip: boolean, exactLimit = EXACT_TRIP_LIMIT): number[] | undefined {
  const n = costs.length;
  const order = n <= exactLimit ? heldKarp(costs, roundtrip) : twoOpt(costs, roundtrip, nearestNeighbour(costs, roundtrip));
  return order && Number.isFinite(tourCost(costs, order, roundtrip)) ? order : undefined;
}

export function tourCost(costs: readonly (readonly number[])[], order: readonly number[], roundtrip: boolean): number {
  let total = 0;
  for (let i = 1; i < order.length; i++) total += costs[order[i - 1]!]![order[i]!]!;
  if (roundtrip && order.length > 1) total += costs[order[order.length - 1]!]![order[0]!]!;
  return total;
}

function heldKarp(costs: readonly (readonly number[])[], roundtrip: boolean): number[] | undefined {
  const n = costs.length;
  if (n <= 2) return Array.from({ length: n }, (_, i) => i);
  const end = n - 1;
  // Stops 1..n-1 are free for a round trip; an open trip pins the last one as the end.
  const free = roundtrip ? n - 1 : n - 2;
  const full = (1 << free) - 1;
  const best = new Float64Array((full + 1) * n).fill(Infinity);
  const parent = new Int8Array((full + 1) * n).fill(-1);
  for (let j = 0; j < free; j++) best[(1 << j) * n + j + 1] = costs[0]![j + 1]!;
  for (let mask = 1; mask <= full; mask++) {
    for (let j = 0; j < free; j++) {
      if (!(mask & (1 << j))) continue;
      const here = best[mask * n + j + 1]!;
      if (here === Infinity) continue;
      for (let k = 0; k < free; k++) {
        if (mask & (1 << k)) continue;
        const next = mask | (1 << k);
        const cost = here + costs[j + 1]![k + 1]!;
        if (cost < best[next * n + k + 1]!) {
          best[next * n + k + 1] = cost;
          parent[next * n + k + 1] = j + 1;
        }
      }
    }
  }
  let last = -1;
  let total = Infinity;
  for (let j = 0; j < free; j++) {
    const cost = best[full * n + j + 1]! + costs[j + 1]![roundtrip ? 0 : end]!;
    if (cost < total) {
      total = cost;
      last = j + 1;
    }
  }
  if (last < 0) return undefined;
  const order: number[] = [];
  for (let mask = full, stop = last; stop > 0;) {
    order.push(stop);
    const previous = parent[mask * n + stop]!;
    mask &= ~(1 << (stop - 1));
    stop = previous;
  }
  order.push(0);
  order.reverse();
  if (!roundtrip) order.push(end);
  return order;
}

function nearestNeighbour(costs: readonly (readonly number[])[], roundtrip: boolean): number[] {
  const n = costs.length;
  const end = roundtrip ? -1 : n - 1;
  const order = [0];
  const visited = new Set([0, end]);
  while (order.length < (roundtrip ? n : n - 1)) {
    const here = order[order.length - 1]!;
    let next = -1;
    for (let k = 0; k < n; k++) if (!visited.has(k) && (next < 0 || costs[here]![k]! < costs[here]![next]!)) next = k;
    visited.add(next);
    order.push(next);
  }
  if (!roundtrip) order.push(end);
  return order;
}

/** Reverses stretches of the order while that shortens it; costs may differ by direction, so whole tours are compared. */
function twoOpt(costs: readonly (readonly number[])[], roundtrip: boolean, start: number[]): number[] {
  let order = start;
  let cost = tourCost(costs, order, roundtrip);
  const last = roundtrip ? order.length - 1 : order.length - 2;
  for (let improved = true; improved;) {
    improved = false;
    for (let i = 1; i < last; i++) {
      for (let j = i + 1; j <= last; j++) {
        const candidate = [...order.slice(0, i), ...order.slice(i, j + 1).reverse(), ...order.slice(j + 1)];
        const candidateCost = tourCost(costs, candidate, roundtrip);
        if (candidateCost < cost - 1e-9) {
          order = candidate;
          cost = candidateCost;
          improved = true;
        }
      }
    }
  }
  return order;
}
