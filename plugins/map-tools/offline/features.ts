import { Growable } from './growable.js';
import { ELEMENT_KINDS, type ElementKind, type Tags } from './reader.js';
import type { StringPool } from './strings.js';

/** Coordinates are kept as 1e-7 degree integers: 1 cm, half the memory of doubles. */
export const E7 = 1e7;

/**
 * The elements the tools can name: every tagged node, way and relation, at one point
 * (a node's position, the centre of a way's or relation's bounding box), with its tags
 * as pairs of string-pool numbers. Sorted by kind, then id, so an id is found by binary
 * search. Untagged elements are not kept: they are geometry, already folded into the
 * centres and the road graph.
 */
export class FeatureStore {
  /** Features of kind k (an index of `ELEMENT_KINDS`) are `kindStart[k] .. kindStart[k + 1]`. */
  readonly kindStart: Uint32Array;

  constructor(
    readonly pool: StringPool,
    readonly kinds: Uint8Array,
    readonly ids: Float64Array,
    readonly lat7: Int32Array,
    readonly lon7: Int32Array,
    /** Feature f's tags are `tags[tagStart[f] .. tagStart[f + 1])`, key and value numbers by turns. */
    readonly tagStart: Uint32Array,
    readonly tags: Uint32Array,
  ) {
    this.kindStart = new Uint32Array(ELEMENT_KINDS.length + 1);
    for (const kind of kinds) this.kindStart[kind + 1]!++;
    for (let k = 0; k < ELEMENT_KINDS.length; k++) this.kindStart[k + 1]! += this.kindStart[k]!;
  }

  get count(): number {
    return this.ids.length;
  }

  lat(feature: number): number {
    return this.lat7[feature]! / E7;
  }

  lon(feature: number): number {
    return this.lon7[feature]! / E7;
  }

  kind(feature: number): ElementKind {
    return ELEMENT_KINDS[this.kinds[feature]!]!;
  }

  /** `node/<id>`, `way/<id>` or `relation/<id>`. */
  elementId(feature: number): string {
    return `${this.kind(feature)}/${this.ids[feature]}`;
  }

  /** The feature of an OSM element, or -1 when the extract has no such tagged element. */
  find(kind: ElementKind, id: number): number {
    const k = ELEMENT_KINDS.indexOf(kind);
    let low = this.kindStart[k]!;
    let high = this.kindStart[k + 1]! - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const probe = this.ids[middle]!;
      if (probe < id) low = middle + 1;
      else if (probe > id) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  /** The tags as an object, for answers; searches use `valueId`. */
  tagsOf(feature: number): Tags {
    const tags: Tags = {};
    for (let i = this.tagStart[feature]!; i < this.tagStart[feature + 1]!; i += 2) tags[this.pool.get(this.tags[i]!)] = this.pool.get(this.tags[i + 1]!);
    return tags;
  }

  /** The pool number of the value of the key numbered `key`, or -1 when the feature lacks it. */
  valueId(feature: number, key: number): number {
    const end = this.tagStart[feature + 1]!;
    for (let i = this.tagStart[feature]!; i < end; i += 2) if (this.tags[i] === key) return this.tags[i + 1]!;
    return -1;
  }

  value(feature: number, key: number): string | undefined {
    const id = this.valueId(feature, key);
    return id < 0 ? undefined : this.pool.get(id);
  }
}

/**
 * Collects features as the loader streams the file; `finish` sorts them when the file was
 * not. `add` writes the columns' arrays directly, growing them a block at a time.
 */
export class FeatureStoreBuilder {
  readonly #kinds = new Growable(Uint8Array, 1 << 14);
  readonly #ids = new Growable(Float64Array, 1 << 14);
  readonly #lat7 = new Growable(Int32Array, 1 << 14);
  readonly #lon7 = new Growable(Int32Array, 1 << 14);
  readonly #tagStart = new Growable(Uint32Array, 1 << 14);
  readonly tags = new Growable(Uint32Array, 1 << 16);
  #count = 0;
  #capacity = 0;

  constructor(readonly pool: StringPool) {}

  get count(): number {
    return this.#count;
  }

  /** Starts a feature; its tags follow, appended to `tags` as key and value numbers. */
  add(kind: number, id: number, lat7: number, lon7: number): number {
    const feature = this.#count;
    if (feature + 2 > this.#capacity) this.#grow(Math.max(1024, feature));
    this.#kinds.data[feature] = kind;
    this.#ids.data[feature] = id;
    this.#lat7.data[feature] = lat7;
    this.#lon7.data[feature] = lon7;
    this.#tagStart.data[feature] = this.tags.length;
    this.#count = feature + 1;
    return feature;
  }

  #grow(extra: number): void {
    const columns = [this.#kinds, this.#ids, this.#lat7, this.#lon7, this.#tagStart];
    for (const column of columns) {
      column.length = this.#count;
      column.ensure(extra);
    }
    this.#capacity = Math.min(...columns.map((column) => column.data.length));
  }

  /**
   * The store, and where each feature as added ended up (undefined when the order was
   * already right, as it is for files sorted by type then id).
   */
  finish(): { store: FeatureStore; position: Uint32Array | undefined } {
    for (const column of [this.#kinds, this.#ids, this.#lat7, this.#lon7, this.#tagStart]) column.length = this.#count;
    this.#tagStart.push(this.tags.length);
    const kinds = this.#kinds.finish();
    const ids = this.#ids.finish();
    const lat7 = this.#lat7.finish();
    const lon7 = this.#lon7.finish();
    const tagStart = this.#tagStart.finish();
    const tags = this.tags.finish();
    const before = (a: number, b: number) => kinds[a]! - kinds[b]! || ids[a]! - ids[b]!;
    let sorted = true;
    for (let i = 1; i < ids.length && sorted; i++) sorted = before(i - 1, i) < 0;
    if (sorted) return { store: new FeatureStore(this.pool, kinds, ids, lat7, lon7, tagStart, tags), position: undefined };
    const order = Uint32Array.from(ids.keys()).sort(before);
    const position = new Uint32Array(ids.length);
    order.forEach((source, target) => (position[source] = target));
    const sortedTags = new Uint32Array(tags.length);
    const sortedStart = new Uint32Array(tagStart.length);
    order.forEach((source, target) => {
      sortedTags.set(tags.subarray(tagStart[source], tagStart[source + 1]), sortedStart[target]);
      sortedStart[target + 1] = sortedStart[target]! + tagStart[source + 1]! - tagStart[source]!;
    });
    const pick = <T extends Uint8Array | Float64Array | Int32Array>(values: T) => values.map((_, target) => values[order[target]!]!) as T;
    return { store: new FeatureStore(this.pool, pick(kinds), pick(ids), pick(lat7), pick(lon7), sortedStart, sortedTags), position };
  }
}
