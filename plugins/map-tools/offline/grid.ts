import { METERS_PER_DEGREE_LAT, metersPerDegreeLon } from './geo.js';
import { lowerBound, sequence } from './growable.js';

/**
 * A grid of cells over the data's extent holding item numbers (points, or boxes entered
 * into every cell they touch). Only cells with items are stored, row by row with their
 * columns sorted, so a country-sized extent costs no more than the items in it. Queries
 * walk rings of cells outward from a point.
 */
export class SpatialGrid {
  private constructor(
    private readonly south: number,
    private readonly west: number,
    private readonly cellDeg: number,
    private readonly rows: number,
    private readonly cols: number,
    /** Row r's cells are `rowFirstCell[r] .. rowFirstCell[r + 1]`, by column. */
    private readonly rowFirstCell: Uint32Array,
    private readonly cellCol: Uint32Array,
    /** Cell c's items are `items[cellStart[c] .. cellStart[c + 1]]`. */
    private readonly cellStart: Uint32Array,
    private readonly items: Int32Array,
    /** The shortest side of a cell in meters, at the extent's widest latitude. */
    private readonly cellMinM: number,
  ) {}

  /** Item i occupies the box `boxes[4i .. 4i + 4]`: south, west, north, east in degrees. */
  static build(cellDeg: number, boxes: Float64Array): SpatialGrid {
    const count = boxes.length / 4;
    let south = Infinity;
    let west = Infinity;
    let north = -Infinity;
    let east = -Infinity;
    for (let i = 0; i < count; i++) {
      if (boxes[4 * i]! < south) south = boxes[4 * i]!;
      if (boxes[4 * i + 1]! < west) west = boxes[4 * i + 1]!;
      if (boxes[4 * i + 2]! > north) north = boxes[4 * i + 2]!;
      if (boxes[4 * i + 3]! > east) east = boxes[4 * i + 3]!;
    }
    if (count === 0) south = west = north = east = 0;
    const rows = Math.max(1, Math.floor((north - south) / cellDeg) + 1);
    const cols = Math.max(1, Math.floor((east - west) / cellDeg) + 1);
    // Each item in every cell its box touches, as (row * cols + column, item).
    let entries = 0;
    for (let i = 0; i < count; i++) {
      const height = Math.floor((boxes[4 * i + 2]! - south) / cellDeg) - Math.floor((boxes[4 * i]! - south) / cellDeg) + 1;
      entries += height * (Math.floor((boxes[4 * i + 3]! - west) / cellDeg) - Math.floor((boxes[4 * i + 1]! - west) / cellDeg) + 1);
    }
    const entryCell = new Float64Array(entries);
    const entryItem = new Int32Array(entries);
    let e = 0;
    for (let i = 0; i < count; i++) {
      const r0 = Math.floor((boxes[4 * i]! - south) / cellDeg);
      const r1 = Math.floor((boxes[4 * i + 2]! - south) / cellDeg);
      const c0 = Math.floor((boxes[4 * i + 1]! - west) / cellDeg);
      const c1 = Math.floor((boxes[4 * i + 3]! - west) / cellDeg);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          entryCell[e] = r * cols + c;
          entryItem[e++] = i;
        }
      }
    }
    // Entries by cell: one counting sort when the cells are few enough to count, else by
    // column and then (stably) by row, which never needs more counters than rows or columns.
    const order =
      rows * cols <= 4 * entries + 65536
        ? countingOrder(entries, rows * cols, (k) => entryCell[k]!, sequence(entries))
        : countingOrder(
            entries,
            rows,
            (k) => Math.floor(entryCell[k]! / cols),
            countingOrder(entries, cols, (k) => entryCell[k]! % cols, sequence(entries)),
          );
    const rowFirstCell = new Uint32Array(rows + 1);
    const cellCol = new Uint32Array(entries);
    const cellStart = new Uint32Array(entries + 1);
    const items = new Int32Array(entries);
    let cells = 0;
    let last = -1;
    for (let k = 0; k < entries; k++) {
      const entry = order[k]!;
      const cell = entryCell[entry]!;
      if (cell !== last) {
        const row = Math.floor(cell / cols);
        cellCol[cells] = cell - row * cols;
        cellStart[cells++] = k;
        rowFirstCell[row + 1]!++;
        last = cell;
      }
      items[k] = entryItem[entry]!;
    }
    cellStart[cells] = entries;
    for (let r = 0; r < rows; r++) rowFirstCell[r + 1]! += rowFirstCell[r]!;
    const widestLat = Math.max(Math.abs(south), Math.abs(north));
    const cellMinM = cellDeg * Math.min(METERS_PER_DEGREE_LAT, metersPerDegreeLon(Math.min(89, widestLat)));
    return new SpatialGrid(south, west, cellDeg, rows, cols, rowFirstCell, cellCol.slice(0, cells), cellStart.slice(0, cells + 1), items, cellMinM);
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
    // Rings entirely outside the grid hold nothing; start at the first that can reach it.
    const outside = Math.max(0, -row, row - (this.rows - 1), -col, col - (this.cols - 1));
    for (let ring = outside; ring <= maxRing; ring++) {
      // Everything outside rings 0..ring-1 is at least (ring - 1) cells away.
      if (ring > 1 && bound() <= (ring - 1) * this.cellMinM) return;
      const firstRow = Math.max(0, row - ring);
      const lastRow = Math.min(this.rows - 1, row + ring);
      if (firstRow > lastRow) return;
      for (let r = firstRow; r <= lastRow; r++) {
        if (r === row - ring || r === row + ring) this.#visitRow(r, col - ring, col + ring, visit);
        else {
          this.#visitRow(r, col - ring, col - ring, visit);
          if (ring > 0) this.#visitRow(r, col + ring, col + ring, visit);
        }
      }
    }
  }

  /** The items of row r's cells with columns c0..c1. */
  #visitRow(r: number, c0: number, c1: number, visit: (item: number) => void): void {
    const end = this.rowFirstCell[r + 1]!;
    for (let cell = lowerBound(this.cellCol, c0, this.rowFirstCell[r]!, end); cell < end && this.cellCol[cell]! <= c1; cell++) {
      const last = this.cellStart[cell + 1]!;
      for (let i = this.cellStart[cell]!; i < last; i++) visit(this.items[i]!);
    }
  }
}

/** `order` (entries 0 .. count) stably sorted by `key(entry)`, a whole number below `range`. */
function countingOrder(count: number, range: number, key: (entry: number) => number, order: Uint32Array): Uint32Array {
  const counts = new Uint32Array(range + 1);
  for (let k = 0; k < count; k++) counts[key(k) + 1]!++;
  for (let v = 0; v < range; v++) counts[v + 1]! += counts[v]!;
  const sorted = new Uint32Array(count);
  for (let k = 0; k < count; k++) {
    const entry = order[k]!;
    sorted[counts[key(entry)]!++] = entry;
  }
  return sorted;
}
