/** How far around the last hit a lookup looks first. */
const NEAR = 32;

/**
 * The ids of one kind of element in file order, and how to find an id's position: by
 * binary search over the ids themselves when they are sorted (files almost always are),
 * else over a sorted copy that remembers the file order.
 */
export class IdIndex {
  readonly #sorted: Float64Array;
  readonly #order: Uint32Array | undefined;

  constructor(ids: Float64Array) {
    let sorted = true;
    for (let i = 1; i < ids.length && sorted; i++) sorted = ids[i - 1]! < ids[i]!;
    if (sorted) {
      this.#sorted = ids;
      this.#order = undefined;
    } else {
      this.#order = Uint32Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
      this.#sorted = Float64Array.from(this.#order, (i) => ids[i]!);
    }
  }

  get count(): number {
    return this.#sorted.length;
  }

  /**
   * Where `id` sits among the sorted ids, or -1. `near` is where the previous lookup
   * landed: a way's nodes were mostly created together, so the next is often close by.
   */
  find(id: number, near = -1): number {
    const ids = this.#sorted;
    const count = ids.length;
    if (near >= 0 && near < count) {
      let low = Math.max(0, near - NEAR);
      let high = Math.min(count - 1, near + NEAR);
      if (ids[low]! <= id && id <= ids[high]!) {
        while (low <= high) {
          const middle = (low + high) >>> 1;
          const probe = ids[middle]!;
          if (probe < id) low = middle + 1;
          else if (probe > id) high = middle - 1;
          else return middle;
        }
        return -1;
      }
    }
    if (count === 0) return -1;
    // Without branches to mispredict: the probes' cache misses are the cost left.
    let base = 0;
    let length = count;
    while (length > 1) {
      const half = length >>> 1;
      base = ids[base + half]! <= id ? base + half : base;
      length -= half;
    }
    return ids[base] === id ? base : -1;
  }

  /** The file-order position of a position among the sorted ids. */
  position(sorted: number): number {
    return this.#order ? this.#order[sorted]! : sorted;
  }
}
