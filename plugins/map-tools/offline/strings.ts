/**
 * Every distinct tag key and value of the extract, once: tags are stored as pairs of
 * numbers into this pool, so a key like `highway` costs four bytes per use, not a string.
 */
export class StringPool {
  readonly strings: string[] = [];
  readonly #ids = new Map<string, number>();

  get size(): number {
    return this.strings.length;
  }

  intern(text: string): number {
    let id = this.#ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(text);
      this.#ids.set(text, id);
    }
    return id;
  }

  /** The number of a string, or -1 when the extract never uses it. */
  id(text: string): number {
    return this.#ids.get(text) ?? -1;
  }

  get(id: number): string {
    return this.strings[id]!;
  }
}
