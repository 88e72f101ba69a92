/** Typed-array columns: growing ones, and the few helpers the indexes share. */
type TypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;
type TypedArrayConstructor<T extends TypedArray> = new (length: number) => T;

/**
 * An append-only typed array that doubles when full, for building columns of unknown
 * length. Hot loops call `ensure` once and then write `data` directly.
 */
export class Growable<T extends TypedArray> {
  data: T;
  length = 0;

  constructor(
    private readonly make: TypedArrayConstructor<T>,
    capacity = 1024,
  ) {
    this.data = new make(Math.max(1, capacity));
  }

  /** Room for `extra` more values; `data` may be a new array afterwards. */
  ensure(extra: number): T {
    const needed = this.length + extra;
    if (needed > this.data.length) {
      const next = new this.make(Math.max(needed, this.data.length * 2));
      next.set(this.data.subarray(0, this.length));
      this.data = next;
    }
    return this.data;
  }

  push(value: number): void {
    if (this.length === this.data.length) this.ensure(1);
    this.data[this.length++] = value;
  }

  /** Forgets the values and keeps the room, for buffers reused block after block. */
  clear(): void {
    this.length = 0;
  }

  /** The values so far, without copying (valid until the next push). */
  view(): T {
    return this.data.subarray(0, this.length) as T;
  }

  /** A right-sized copy; the builder can be dropped afterwards. */
  finish(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/** 0, 1, 2, … `length - 1`: an order to sort, or the row starts of a relation with one value per row. */
export function sequence(length: number): Uint32Array {
  const values = new Uint32Array(length);
  for (let i = 0; i < length; i++) values[i] = i;
  return values;
}

/** The first position in `sorted[low .. high)` whose value is not below `value` (`high` when none). */
export function lowerBound(sorted: Uint32Array, value: number, low: number, high: number): number {
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
