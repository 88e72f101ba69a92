/**
 * A Map for what is in flight (calls, answers awaited), whose entries come and go with
 * each request: a value is held in a cell, emptied when the entry goes.
 *
 * Why not a plain Map: V8 does not edit a Map's hash table in place when the Map grows or
 * shrinks, it copies the entries into a new table, and a table in the old generation gets
 * its successor there too. The table it replaced keeps its copies of the entries until the
 * next full collection, and a minor collection counts every reference from the old
 * generation as live. So once a busy Map's table was promoted (a quiet spell is enough),
 * every call whose value such a table copied survived the minor collections with
 * everything it reached, and was promoted in turn: the hub promoted about 3,300 bytes a
 * call where one loaded at once after start-up promoted 37 to 205, and its old generation
 * grew to four times what it holds live between full collections (issue 42,
 * bench/promotion.ts; docs/internals/performance.md). A replaced table
 * here copies cells, emptied as their entries go, so it keeps nothing of a finished call.
 */
export class InFlightMap<K, V> {
  readonly #cells = new Map<K, { value: V | undefined }>();

  get size(): number {
    return this.#cells.size;
  }

  has(key: K): boolean {
    return this.#cells.has(key);
  }

  get(key: K): V | undefined {
    return this.#cells.get(key)?.value;
  }

  set(key: K, value: V): void {
    const cell = this.#cells.get(key);
    if (cell) cell.value = value;
    else this.#cells.set(key, { value });
  }

  /** Removes `key`'s entry; false when there was none. */
  delete(key: K): boolean {
    const cell = this.#cells.get(key);
    if (!cell) return false;
    cell.value = undefined;
    return this.#cells.delete(key);
  }

  /** Removes every entry, and returns their values. */
  takeAll(): V[] {
    const values: V[] = [];
    for (const cell of this.#cells.values()) {
      values.push(cell.value as V);
      cell.value = undefined;
    }
    this.#cells.clear();
    return values;
  }
}
