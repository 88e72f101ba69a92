type TypedArray = Float64Array | Int32Array | Uint32Array;
type TypedArrayConstructor<T extends TypedArray> = new (length: number) => T;

/** An append-only typed array that doubles when full, for building columns of unknown length. */
export class Growable<T extends TypedArray> {
  #data: T;
  length = 0;

  constructor(private readonly make: TypedArrayConstructor<T>, capacity = 1024) {
    this.#data = new make(capacity);
  }

  push(value: number): void {
    if (this.length === this.#data.length) {
      const next = new this.make(this.#data.length * 2);
      next.set(this.#data);
      this.#data = next;
    }
    this.#data[this.length++] = value;
  }

  /** A right-sized copy; the builder can be dropped afterwards. */
  finish(): T {
    return this.#data.slice(0, this.length) as T;
  }
}
