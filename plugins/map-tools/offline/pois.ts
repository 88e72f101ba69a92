import type { FeatureStore } from './features.js';
import { haversineM } from './geo.js';
import { SpatialGrid } from './grid.js';

/** About 110 m: a radius of a few hundred meters touches a few dozen cells. */
const POI_CELL_DEG = 0.001;

export interface TagCondition {
  key: string;
  value?: string;
}

/** A condition with its key and value as pool numbers (-1 for a value the extract never uses). */
interface PooledCondition {
  key: number;
  value: number;
  text: string | undefined;
}

export interface PoiHit {
  feature: number;
  distanceM: number;
}

/** Every feature at its point in a spatial grid, matched on tags by their pool numbers. */
export class PoiIndex {
  readonly #grid: SpatialGrid;

  constructor(private readonly features: FeatureStore) {
    const boxes = new Float64Array(4 * features.count);
    for (let f = 0; f < features.count; f++) {
      const lat = features.lat(f);
      const lon = features.lon(f);
      boxes[4 * f] = boxes[4 * f + 2] = lat;
      boxes[4 * f + 1] = boxes[4 * f + 3] = lon;
    }
    this.#grid = SpatialGrid.build(POI_CELL_DEG, boxes);
  }

  /** Features within the radius matching any condition, nearest first, at most `max`. */
  nearby(lat: number, lon: number, radiusM: number, conditions: readonly TagCondition[], max: number): PoiHit[] {
    const pool = this.features.pool;
    // A key or value the extract never uses matches nothing: such conditions drop out here.
    const wanted = conditions.flatMap((condition): PooledCondition[] => {
      const key = pool.id(condition.key);
      if (key < 0) return [];
      return [{ key, value: condition.value === undefined ? -1 : pool.id(condition.value), text: condition.value }];
    });
    if (wanted.length === 0) return [];
    const hits: PoiHit[] = [];
    this.#grid.search(lat, lon, radiusM, (feature) => {
      if (!wanted.some((condition) => this.#matches(feature, condition))) return;
      const distanceM = haversineM(lat, lon, this.features.lat(feature), this.features.lon(feature));
      if (distanceM <= radiusM) hits.push({ feature, distanceM });
    });
    return hits.sort((a, b) => a.distanceM - b.distanceM).slice(0, max);
  }

  /** `key` present, or equal to `value`; a multi-valued tag (`a;b`) matches any of its values. */
  #matches(feature: number, condition: PooledCondition): boolean {
    const actual = this.features.valueId(feature, condition.key);
    if (actual < 0) return false;
    if (condition.text === undefined || actual === condition.value) return true;
    const value = this.features.pool.get(actual);
    return value.includes(';') && value.split(';').some((part) => part.trim() === condition.text);
  }
}
