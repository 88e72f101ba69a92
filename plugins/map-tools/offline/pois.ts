import type { ElementRef, ElementStore } from './elements.js';
import { haversineM } from './geo.js';
import { GridEntries, SpatialGrid } from './grid.js';
import type { Tags } from './reader.js';

/** About 110 m: a radius of a few hundred meters touches a few dozen cells. */
const POI_CELL_DEG = 0.001;

export interface TagCondition {
  key: string;
  value?: string;
}

export interface PoiHit {
  ref: ElementRef;
  lat: number;
  lon: number;
  tags: Tags;
  distanceM: number;
}

/** Every tagged element at its position (centres for ways and relations) in a spatial grid. */
export class PoiIndex {
  readonly #refs: ElementRef[] = [];
  readonly #lat: Float64Array;
  readonly #lon: Float64Array;
  readonly #grid: SpatialGrid;

  constructor(private readonly store: ElementStore) {
    const lat: number[] = [];
    const lon: number[] = [];
    const entries = new GridEntries();
    const add = (ref: ElementRef) => {
      const centre = store.centre(ref);
      if (!centre) return;
      entries.add(this.#refs.length, centre.lat, centre.lon, centre.lat, centre.lon);
      this.#refs.push(ref);
      lat.push(centre.lat);
      lon.push(centre.lon);
    };
    for (const [index] of store.taggedNodes()) add({ kind: 'node', index });
    for (let index = 0; index < store.wayCount; index++) if (store.tagsOf({ kind: 'way', index })) add({ kind: 'way', index });
    for (let index = 0; index < store.relationCount; index++) if (store.tagsOf({ kind: 'relation', index })) add({ kind: 'relation', index });
    this.#lat = Float64Array.from(lat);
    this.#lon = Float64Array.from(lon);
    this.#grid = SpatialGrid.build(POI_CELL_DEG, entries);
  }

  get size(): number {
    return this.#refs.length;
  }

  /** Elements within the radius matching any condition, nearest first, at most `max`. */
  nearby(lat: number, lon: number, radiusM: number, conditions: readonly TagCondition[], max: number): PoiHit[] {
    const hits: PoiHit[] = [];
    this.#grid.search(lat, lon, radiusM, (item) => {
      const ref = this.#refs[item]!;
      const tags = this.store.tagsOf(ref);
      if (!tags || !conditions.some((condition) => matches(tags, condition))) return;
      const distanceM = haversineM(lat, lon, this.#lat[item]!, this.#lon[item]!);
      if (distanceM <= radiusM) hits.push({ ref, lat: this.#lat[item]!, lon: this.#lon[item]!, tags, distanceM });
    });
    return hits.sort((a, b) => a.distanceM - b.distanceM).slice(0, max);
  }
}

/** `key` present, or equal to `value`; a multi-valued tag (`a;b`) matches any of its values. */
function matches(tags: Tags, condition: TagCondition): boolean {
  const actual = tags[condition.key];
  if (actual === undefined) return false;
  if (condition.value === undefined) return true;
  return actual === condition.value || actual.split(';').some((part) => part.trim() === condition.value);
}
