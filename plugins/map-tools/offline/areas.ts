import { E7 } from './features.js';
import { METERS_PER_DEGREE_LAT, metersPerDegreeLon } from './geo.js';

/**
 * The outlines of the extract's areas (administrative and postal boundaries, places drawn
 * as areas), so that "in Fontvieille" means inside Fontvieille's boundary rather than
 * near its label. An outline is the member ways' lines as they are, in any order and
 * direction: a point is inside when a ray from it crosses them an odd number of times,
 * which needs no ring assembly. Only closed outlines are kept: a boundary cut by the
 * extract's border has no inside.
 */
export class AreaOutlines {
  /** Outline a's lines are `lineStart[areaStart[a]] .. lineStart[areaStart[a + 1]]` (vertex numbers). */
  readonly #areaStart: Uint32Array;
  readonly #lineStart: Uint32Array;
  /** Vertex v at `coords[2v]` (latitude) and `coords[2v + 1]` (longitude), 1e-7 degrees. */
  readonly #coords: Int32Array;
  /** South, west, north, east of each outline in 1e-7 degrees. */
  readonly #boxes: Int32Array;
  /** The feature each outline belongs to. */
  readonly feature: Int32Array;

  constructor(built: { feature: Int32Array; areaStart: Uint32Array; lineStart: Uint32Array; coords: Int32Array }) {
    this.feature = built.feature;
    this.#areaStart = built.areaStart;
    this.#lineStart = built.lineStart;
    this.#coords = built.coords;
    this.#boxes = new Int32Array(4 * built.feature.length);
    for (let a = 0; a < built.feature.length; a++) {
      let [south, west, north, east] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let v = this.#lineStart[this.#areaStart[a]!]!; v < this.#lineStart[this.#areaStart[a + 1]!]!; v++) {
        south = Math.min(south, this.#coords[2 * v]!);
        north = Math.max(north, this.#coords[2 * v]!);
        west = Math.min(west, this.#coords[2 * v + 1]!);
        east = Math.max(east, this.#coords[2 * v + 1]!);
      }
      this.#boxes.set([south, west, north, east], 4 * a);
    }
  }

  get count(): number {
    return this.feature.length;
  }

  /** Whether a point lies inside the outline (even-odd rule). */
  contains(area: number, lat: number, lon: number): boolean {
    return this.distanceM(area, lat, lon, 0) === 0;
  }

  /**
   * Meters from a point outside the outline to its nearest edge, 0 inside (a ray from the
   * point crosses its lines an odd number of times); Infinity when its box is farther than `withinM`.
   */
  distanceM(area: number, lat: number, lon: number, withinM = Infinity): number {
    const b = this.#boxes;
    const y = lat * E7;
    const x = lon * E7;
    // Local flat meters per 1e-7 degree: exact enough over an area's few kilometres.
    const ky = METERS_PER_DEGREE_LAT / E7;
    const kx = metersPerDegreeLon(lat) / E7;
    const outside = Math.hypot(Math.max(0, b[4 * area]! - y, y - b[4 * area + 2]!) * ky, Math.max(0, b[4 * area + 1]! - x, x - b[4 * area + 3]!) * kx);
    if (outside > withinM) return Infinity;
    const c = this.#coords;
    let inside = false;
    let nearest = Infinity;
    for (let line = this.#areaStart[area]!; line < this.#areaStart[area + 1]!; line++) {
      for (let v = this.#lineStart[line]!; v + 1 < this.#lineStart[line + 1]!; v++) {
        const ay = c[2 * v]!;
        const ax = c[2 * v + 1]!;
        const by = c[2 * v + 2]!;
        const bx = c[2 * v + 3]!;
        if (ay > y !== by > y && x < ax + ((y - ay) * (bx - ax)) / (by - ay)) inside = !inside;
        // The point's squared distance to the segment, in meters.
        const px = (x - ax) * kx;
        const py = (y - ay) * ky;
        const dx = (bx - ax) * kx;
        const dy = (by - ay) * ky;
        const lengthSq = dx * dx + dy * dy;
        const t = lengthSq === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / lengthSq));
        nearest = Math.min(nearest, (px - t * dx) ** 2 + (py - t * dy) ** 2);
      }
    }
    return inside ? 0 : Math.sqrt(nearest);
  }
}

/** Collects outlines line by line while the extract loads; a line is a way's node positions. */
export class AreaOutlineBuilder {
  readonly #feature: number[] = [];
  readonly #areaStart: number[] = [0];
  readonly #lineStart: number[] = [0];
  readonly #coords: number[] = [];

  /**
   * Adds an area from its lines (each a list of node positions into `nodeCoords`), if they
   * close: every end meets an even number of ends. Returns whether it was kept.
   */
  add(feature: number, lines: readonly Int32Array[], nodeCoords: Int32Array): boolean {
    const ends = new Map<number, number>();
    for (const line of lines) {
      if (line.length < 2) continue;
      for (const end of [line[0]!, line[line.length - 1]!]) ends.set(end, (ends.get(end) ?? 0) + 1);
    }
    if (ends.size === 0 || [...ends.values()].some((count) => count % 2 === 1)) return false;
    for (const line of lines) {
      if (line.length < 2) continue;
      for (const node of line) this.#coords.push(nodeCoords[2 * node]!, nodeCoords[2 * node + 1]!);
      this.#lineStart.push(this.#coords.length / 2);
    }
    this.#feature.push(feature);
    this.#areaStart.push(this.#lineStart.length - 1);
    return true;
  }

  /** The outlines, with their features renumbered by `position` (the store's sorted order) when given. */
  finish(position?: Int32Array | Uint32Array): AreaOutlines {
    return new AreaOutlines({
      feature: Int32Array.from(this.#feature, (feature) => (position ? position[feature]! : feature)),
      areaStart: Uint32Array.from(this.#areaStart),
      lineStart: Uint32Array.from(this.#lineStart),
      coords: Int32Array.from(this.#coords),
    });
  }
}
