import { METERS_PER_DEGREE_LAT, metersPerDegreeLon } from './geo.js';
import { Growable } from './growable.js';

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
      south = Math.min(south, boxes[4 * i]!);
      west = Math.min(west, boxes[4 * i + 1]!);
      north = Math.max(north, boxes[4 * i + 2]!);
      east = Math.max(east, boxes[4 * i + 3]!);
    }
    if (count === 0) south = west = north = east = 0;
    const rows = Math.max(1, Math.floor((north - south) / cellDeg) + 1);
    const cols = Math.max(1, Math.floor((east - west) / cellDeg) + 1);
    const row = (lat: number) => Math.floor((lat - south) / cellDeg);
    const col = (lon: number) => Math.floor((lon - west) / cellDeg);
    let entries = 0;
    for (let i = 0; i < count; i++) entries += (row(boxes[4 * i + 2]!) - row(boxes[4 * i]!) + 1) * (col(boxes[4 * i + 3]!) - col(boxes[4 * i + 1]!) + 1);
    const entryRow = new Uint32Array(entries);
    const entryCol = new Uint32Array(entries);
    const entryItem = new Int32Array(entries);
    let e = 0;
    for (let i = 0; i < count; i++) {
      const c0 = col(boxes[4 * i + 1]!);
      const c1 = col(boxes[4 * i + 3]!);
      for (let r = row(boxes[4 * i]!); r <= row(boxes[4 * i + 2]!); r++) {
        for (let c = c0; c <= c1; c++) {
          entryRow[e] = r;
          entryCol[e] = c;
          entryItem[e++] = i;
        }
      }
    }
    // Entries in row, then column order: a counting sort by column, then a stable one by row.
    const byCol = countingOrder(entryCol, cols, Uint32Array.from(entryCol.keys()));
    const order = countingOrder(entryRow, rows, byCol);
    const rowFirstCell = new Uint32Array(rows + 1);
    const cellCol = new Growable(Uint32Array);
    const cellStart = new Growable(Uint32Array);
    const items = new Int32Array(entries);
    let lastRow = -1;
    let lastCol = -1;
    for (let k = 0; k < entries; k++) {
      const entry = order[k]!;
      const r = entryRow[entry]!;
      const c = entryCol[entry]!;
      if (r !== lastRow || c !== lastCol) {
        cellCol.push(c);
        cellStart.push(k);
        rowFirstCell[r + 1]!++;
        lastRow = r;
        lastCol = c;
      }
      items[k] = entryItem[entry]!;
    }
    cellStart.push(entries);
    for (let r = 0; r < rows; r++) rowFirstCell[r + 1]! += rowFirstCell[r]!;
    const widestLat = Math.max(Math.abs(south), Math.abs(north));
    const cellMinM = cellDeg * Math.min(METERS_PER_DEGREE_LAT, metersPerDegreeLon(Math.min(89, widestLat)));
    return new SpatialGrid(south, west, cellDeg, rows, cols, rowFirstCell, cellCol.finish(), cellStart.finish(), items, cellMinM);
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
    let low = this.rowFirstCell[r]!;
    let high = this.rowFirstCell[r + 1]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.cellCol[middle]! < c0) low = middle + 1;
      else high = middle;
    }
    const end = this.rowFirstCell[r + 1]!;
    for (let cell = low; cell < end && this.cellCol[cell]! <= c1; cell++) {
      const last = this.cellStart[cell + 1]!;
      for (let i = this.cellStart[cell]!; i < last; i++) visit(this.items[i]!);
    }
  }
}

/** `order` stably sorted by `keys[order[i]]` (keys below `range`). */
function countingOrder(keys: Uint32Array, range: number, order: Uint32Array): Uint32Array {
  const counts = new Uint32Array(range + 1);
  for (const key of keys) counts[key + 1]!++;
  for (let k = 0; k < range; k++) counts[k + 1]! += counts[k]!;
  const sorted = new Uint32Array(order.length);
  for (const entry of order) sorted[counts[keys[entry]!]!++] = entry;
  return sorted;
}
