import { Growable } from './growable.js';
import type { BlockData } from './reader.js';

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

const NODE = 0;
const WAY = 1;

/**
 * Every node's and way's id in file order, to resolve the references of the blocks that
 * follow (way nodes, relation members) to positions in file order.
 */
export class References {
  readonly #nodeIds = new Growable(Float64Array, 1 << 16);
  readonly #wayIds = new Growable(Float64Array, 1 << 14);
  #nodes: IdIndex | undefined;
  #ways: IdIndex | undefined;

  constructor(expectedNodes: number) {
    this.#nodeIds = new Growable(Float64Array, Math.max(1 << 16, expectedNodes));
  }

  /** Resolves a block's references into `ways.nodes` and `relations.positions`, then notes its ids. */
  add(data: BlockData): void {
    append(this.#nodeIds, data.nodes.ids);
    this.#resolveWays(data);
    this.#resolveMembers(data);
    append(this.#wayIds, data.ways.ids);
  }

  /** Each way reference as the position of its node; -1 stays where the extract cut it off. */
  #resolveWays({ ways: { refs, nodes: positions } }: BlockData): void {
    if (refs.length === 0) return;
    // Ways come after every node: the node ids are complete now.
    const nodes = (this.#nodes ??= new IdIndex(this.#nodeIds.view()));
    let near = -1;
    for (let r = 0; r < refs.length; r++) {
      const found = nodes.find(refs[r]!, near);
      if (found < 0) continue;
      near = found;
      positions[r] = nodes.position(found);
    }
  }

  /** Each relation member that is a node or a way as its position; relations and missing members stay -1. */
  #resolveMembers({ relations: { memberIds, memberKinds, positions } }: BlockData): void {
    if (memberIds.length === 0) return;
    const nodes = (this.#nodes ??= new IdIndex(this.#nodeIds.view()));
    const ways = (this.#ways ??= new IdIndex(this.#wayIds.view()));
    for (let m = 0; m < memberIds.length; m++) {
      const index = memberKinds[m] === NODE ? nodes : memberKinds[m] === WAY ? ways : undefined;
      const found = index ? index.find(memberIds[m]!) : -1;
      if (index && found >= 0) positions[m] = index.position(found);
    }
  }
}

function append(ids: Growable<Float64Array>, more: Float64Array): void {
  ids.ensure(more.length).set(more, ids.length);
  ids.length += more.length;
}
