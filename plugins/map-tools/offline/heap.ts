/**
 * A binary min-heap of (key, vertex) pairs in typed arrays. Decrease-key is replaced by
 * pushing again; the search skips stale entries, which is faster than tracking positions.
 */
export class MinHeap {
  #keys = new Float64Array(1024);
  #values = new Int32Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  clear(): void {
    this.#size = 0;
  }

  /** The smallest key; only meaningful while the heap is not empty. */
  peekKey(): number {
    return this.#keys[0]!;
  }

  push(key: number, value: number): void {
    if (this.#size === this.#keys.length) this.#grow();
    const keys = this.#keys;
    const values = this.#values;
    let index = this.#size++;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const parentKey = keys[parent]!;
      if (parentKey <= key) break;
      keys[index] = parentKey;
      values[index] = values[parent]!;
      index = parent;
    }
    keys[index] = key;
    values[index] = value;
  }

  /** Removes the entry with the smallest key and returns its value; the heap must not be empty. */
  pop(): number {
    const keys = this.#keys;
    const values = this.#values;
    const top = values[0]!;
    const size = --this.#size;
    if (size === 0) return top;
    const key = keys[size]!;
    const value = values[size]!;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && keys[right]! < keys[child]!) child = right;
      if (keys[child]! >= key) break;
      keys[index] = keys[child]!;
      values[index] = values[child]!;
      index = child;
    }
    keys[index] = key;
    values[index] = value;
    return top;
  }

  #grow(): void {
    const keys = new Float64Array(this.#keys.length * 2);
    keys.set(this.#keys);
    this.#keys = keys;
    const values = new Int32Array(this.#values.length * 2);
    values.set(this.#values);
    this.#values = values;
  }
}
