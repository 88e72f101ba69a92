import { Growable } from './growable.js';
import type { ElementKind, RawMember, RawNode, RawRelation, RawWay, Tags } from './reader.js';

/** Coordinates are kept as 1e-7 degree integers: 1 cm, half the memory of doubles. */
const SCALE = 1e7;

export interface ElementRef {
  kind: ElementKind;
  /** Position in the store's column for that kind, not the OSM id. */
  index: number;
}

export interface Centre {
  lat: number;
  lon: number;
}

interface Member {
  kind: ElementKind;
  id: number;
  role: string;
}

/**
 * Every node, way and relation of the extract in columns: ids, coordinates, way node
 * lists as one flat array with offsets, and tags only where an element has any.
 */
export class ElementStore {
  constructor(
    readonly nodeIds: Float64Array,
    private readonly nodeLat: Int32Array,
    private readonly nodeLon: Int32Array,
    private readonly nodeTags: Map<number, Tags>,
    readonly wayIds: Float64Array,
    /** Node indices of way `w` are `wayNodes[wayOffsets[w] .. wayOffsets[w + 1])`. */
    readonly wayNodes: Int32Array,
    readonly wayOffsets: Uint32Array,
    private readonly wayTags: (Tags | undefined)[],
    readonly relationIds: Float64Array,
    private readonly relationMembers: Member[][],
    private readonly relationTags: (Tags | undefined)[],
  ) {}

  get nodeCount(): number {
    return this.nodeIds.length;
  }
  get wayCount(): number {
    return this.wayIds.length;
  }
  get relationCount(): number {
    return this.relationIds.length;
  }

  lat(node: number): number {
    return this.nodeLat[node]! / SCALE;
  }
  lon(node: number): number {
    return this.nodeLon[node]! / SCALE;
  }

  /** The tagged nodes, by node index. */
  taggedNodes(): IterableIterator<[number, Tags]> {
    return this.nodeTags.entries();
  }

  tagsOf(ref: ElementRef): Tags | undefined {
    if (ref.kind === 'node') return this.nodeTags.get(ref.index);
    if (ref.kind === 'way') return this.wayTags[ref.index];
    return this.relationTags[ref.index];
  }

  osmId(ref: ElementRef): number {
    const ids = ref.kind === 'node' ? this.nodeIds : ref.kind === 'way' ? this.wayIds : this.relationIds;
    return ids[ref.index]!;
  }

  /** The store index of an OSM id, or -1. */
  find(kind: ElementKind, id: number): number {
    return binarySearch(kind === 'node' ? this.nodeIds : kind === 'way' ? this.wayIds : this.relationIds, id);
  }

  /** A node's position; for ways and relations the centre of their bounding box (as map-data services give it). */
  centre(ref: ElementRef): Centre | undefined {
    if (ref.kind === 'node') return { lat: this.lat(ref.index), lon: this.lon(ref.index) };
    const box = { south: Infinity, west: Infinity, north: -Infinity, east: -Infinity };
    if (ref.kind === 'way') this.#extendByWay(box, ref.index);
    else this.#extendByRelation(box, ref.index, new Set());
    if (box.south > box.north) return undefined;
    return { lat: (box.south + box.north) / 2, lon: (box.west + box.east) / 2 };
  }

  #extendByWay(box: { south: number; west: number; north: number; east: number }, way: number): void {
    const end = this.wayOffsets[way + 1]!;
    for (let i = this.wayOffsets[way]!; i < end; i++) {
      const node = this.wayNodes[i]!;
      const lat = this.lat(node);
      const lon = this.lon(node);
      if (lat < box.south) box.south = lat;
      if (lat > box.north) box.north = lat;
      if (lon < box.west) box.west = lon;
      if (lon > box.east) box.east = lon;
    }
  }

  #extendByRelation(box: { south: number; west: number; north: number; east: number }, relation: number, seen: Set<number>): void {
    // Relations may contain each other in cycles; each is visited once.
    seen.add(relation);
    for (const member of this.relationMembers[relation] ?? []) {
      const index = this.find(member.kind, member.id);
      if (index < 0) continue;
      if (member.kind === 'node') {
        const lat = this.lat(index);
        const lon = this.lon(index);
        box.south = Math.min(box.south, lat);
        box.north = Math.max(box.north, lat);
        box.west = Math.min(box.west, lon);
        box.east = Math.max(box.east, lon);
      } else if (member.kind === 'way') this.#extendByWay(box, index);
      else if (!seen.has(index)) this.#extendByRelation(box, index, seen);
    }
  }
}

function binarySearch(sorted: Float64Array, value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const probe = sorted[middle]!;
    if (probe < value) low = middle + 1;
    else if (probe > value) high = middle - 1;
    else return middle;
  }
  return -1;
}

/**
 * Collects elements as the reader streams them. Files are normally sorted by type and
 * id; where they are not, `finish` sorts, so lookups can always use binary search.
 */
export class ElementStoreBuilder {
  readonly #nodeIds = new Growable(Float64Array, 1 << 16);
  readonly #nodeLat = new Growable(Int32Array, 1 << 16);
  readonly #nodeLon = new Growable(Int32Array, 1 << 16);
  readonly #nodeTags = new Map<number, Tags>();
  readonly #wayIds = new Growable(Float64Array, 1 << 14);
  readonly #wayRefs = new Growable(Float64Array, 1 << 16);
  readonly #wayOffsets = new Growable(Uint32Array, 1 << 14);
  readonly #wayTags: (Tags | undefined)[] = [];
  readonly #relationIds = new Growable(Float64Array, 256);
  readonly #relationMembers: Member[][] = [];
  readonly #relationTags: (Tags | undefined)[] = [];

  constructor() {
    this.#wayOffsets.push(0);
  }

  node(node: RawNode): void {
    if (node.tags) this.#nodeTags.set(this.#nodeIds.length, node.tags);
    this.#nodeIds.push(node.id);
    this.#nodeLat.push(Math.round(node.lat * SCALE));
    this.#nodeLon.push(Math.round(node.lon * SCALE));
  }

  way(way: RawWay): void {
    this.#wayIds.push(way.id);
    for (const ref of way.refs) this.#wayRefs.push(ref);
    this.#wayOffsets.push(this.#wayRefs.length);
    this.#wayTags.push(way.tags);
  }

  relation(relation: RawRelation): void {
    this.#relationIds.push(relation.id);
    this.#relationMembers.push(relation.members.map((member: RawMember) => ({ kind: member.type, id: member.ref, role: member.role })));
    this.#relationTags.push(relation.tags);
  }

  finish(): ElementStore {
    const nodes = sortedColumns(this.#nodeIds.finish());
    const nodeLat = permute(this.#nodeLat.finish(), nodes.order);
    const nodeLon = permute(this.#nodeLon.finish(), nodes.order);
    const nodeTags = nodes.order ? remapKeys(this.#nodeTags, nodes.order) : this.#nodeTags;

    const ways = sortedColumns(this.#wayIds.finish());
    const refs = this.#wayRefs.finish();
    const offsets = this.#wayOffsets.finish();
    const wayNodes = new Growable(Int32Array, Math.max(1, refs.length));
    const wayOffsets = new Uint32Array(ways.ids.length + 1);
    const wayTags: (Tags | undefined)[] = new Array<Tags | undefined>(ways.ids.length);
    for (let w = 0; w < ways.ids.length; w++) {
      const source = ways.order ? ways.order[w]! : w;
      // Extracts cut ways at their border: references to nodes outside the file are dropped.
      for (let i = offsets[source]!; i < offsets[source + 1]!; i++) {
        const node = binarySearch(nodes.ids, refs[i]!);
        if (node >= 0) wayNodes.push(node);
      }
      wayOffsets[w + 1] = wayNodes.length;
      wayTags[w] = this.#wayTags[source];
    }

    const relations = sortedColumns(this.#relationIds.finish());
    const pick = <T>(values: T[]) => (relations.order ? Array.from(relations.order, (i) => values[i]!) : values);
    return new ElementStore(
      nodes.ids,
      nodeLat,
      nodeLon,
      nodeTags,
      ways.ids,
      wayNodes.finish(),
      wayOffsets,
      wayTags,
      relations.ids,
      pick(this.#relationMembers),
      pick(this.#relationTags),
    );
  }
}

/** The ids sorted, with the permutation that sorted them, or no permutation when they already were. */
function sortedColumns(ids: Float64Array): { ids: Float64Array; order: Uint32Array | undefined } {
  let sorted = true;
  for (let i = 1; i < ids.length && sorted; i++) sorted = ids[i - 1]! < ids[i]!;
  if (sorted) return { ids, order: undefined };
  const order = Uint32Array.from(ids.keys()).sort((a, b) => ids[a]! - ids[b]!);
  return { ids: Float64Array.from(order, (i) => ids[i]!), order };
}

function permute(values: Int32Array, order: Uint32Array | undefined): Int32Array {
  return order ? Int32Array.from(order, (i) => values[i]!) : values;
}

function remapKeys(tags: Map<number, Tags>, order: Uint32Array): Map<number, Tags> {
  const result = new Map<number, Tags>();
  order.forEach((source, target) => {
    const value = tags.get(source);
    if (value) result.set(target, value);
  });
  return result;
}
