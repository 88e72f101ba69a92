import { Growable } from './growable.js';
import { METERS_PER_DEGREE_LAT, metersPerDegreeLon } from './geo.js';

/**
 * A uniform grid of cells over the data's extent, each holding item numbers (points, or
 * segments entered into every cell their box touches), stored as one flat array with
 * per-cell offsets. Queries walk rings of cells outward from a point.
 */
export class SpatialGrid {
  private constructor(
    private readonly south: number,
    private readonly west: number,
    private readonly cellDeg: number,
    private readonly rows: number,
    private readonly cols: number,
    private readonly offsets: Uint32Array,
    private readonly items: Int32Array,
    /** The shortest side of a cell in meters, at the extent's widest latitude. */
    private readonly cellMinM: number,
  ) {}

  static build(cellDeg: number, boxes: GridEntries): SpatialGrid {
    const entries = boxes.finish();
    let south = Infinity;
    let west = Infinity;
    let north = -Infinity;
    let east = -Infinity;
    for (let i = 0; i < entries.length; i += 5) {
      south = Math.min(south, entries[i + 1]!);
      west = Math.min(west, entries[i + 2]!);
      north = Math.max(north, entries[i + 3]!);
      east = Math.max(east, entries[i + 4]!);
    }
    if (entries.length === 0) south = west = north = east = 0;
    const rows = Math.max(1, Math.floor((north - south) / cellDeg) + 1);
    const cols = Math.max(1, Math.floor((east - west) / cellDeg) + 1);
    const counts = new Uint32Array(rows * cols + 1);
    const span = (s: number, w: number, n: number, e: number, visit: (cell: number) => void) => {
      const r0 = Math.floor((s - south) / cellDeg);
      const r1 = Math.floor((n - south) / cellDeg);
      const c0 = Math.floor((w - west) / cellDeg);
      const c1 = Math.floor((e - west) / cellDeg);
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * cols + c);
    };
    const each = (visit: (item: number, cell: number) => void) => {
      for (let i = 0; i < entries.length; i += 5) {
        const item = entries[i]!;
        span(entries[i + 1]!, entries[i + 2]!, entries[i + 3]!, entries[i + 4]!, (cell) => visit(item, cell));
      }
    };
    each((_item, cell) => counts[cell + 1]!++);
    for (let i = 1; i < counts.length; i++) counts[i]! += counts[i - 1]!;
    const fill = counts.slice(0, rows * cols);
    const items = new Int32Array(counts[rows * cols]!);
    each((item, cell) => (items[fill[cell]!++] = item));
    const widestLat = Math.max(Math.abs(south), Math.abs(north));
    const cellMinM = cellDeg * Math.min(METERS_PER_DEGREE_LAT, metersPerDegreeLon(Math.min(89, widestLat)));
    return new SpatialGrid(south, west, cellDeg, rows, cols, counts, items, cellMinM);
  }

  /**
   * Visits items ring by ring around a point until `radiusM` is covered or `visit`
   * returns a distance bound (the best found so far) that no further ring can beat.
   * Items spanning several cells may be visited more than once.
   */
  search(lat: number, lon: number, radiusM: number, visit: (item: number) => void, bound: () => number = () => Infinity): void {
    const row = Math.floor((lat - this.south) / this.cellDeg);
    const col = Math.floor((lon - this.west) / this.cellDeg);
    const maxRing = Math.ceil(radiusM / this.cellMinM) + 1;
    for (let ring = 0; ring <= maxRing; ring++) {
      // Everything outside rings 0..ring-1 is at least (ring - 1) cells away.
      if (ring > 1 && bound() <= (ring - 1) * this.cellMinM) return;
      for (let r = row - ring; r <= row + ring; r++) {
        if (r < 0 || r >= this.rows) continue;
        const edge = r === row - ring || r === row + ring;
        const step = edge ? 1 : 2 * ring;
        for (let c = col - ring; c <= col + ring; c += step) {
          if (c < 0 || c >= this.cols) continue;
          const cell = r * this.cols + c;
          const end = this.offsets[cell + 1]!;
          for (let i = this.offsets[cell]!; i < end; i++) visit(this.items[i]!);
        }
      }
    }
  }
}

/** Grid entries as they are collected: item number and box, five numbers each. */
export class GridEntries {
  readonly #values = new Growable(Float64Array);

  add(item: number, south: number, west: number, north: number, east: number): void {
    this.#values.push(item);
    this.#values.push(south);
    this.#values.push(west);
    this.#values.push(north);
    this.#values.push(east);
  }

  finish(): Float64Array {
    return this.#values.finish();
  }
}
