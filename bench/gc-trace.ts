// V8's collection trace as `--trace-gc-nvp` prints it, one line a collection
// (`... pause=1.3 ... gc=s ... promoted=67824 new_space_survived=273808 ...`), read into
// figures: what the benches and tests that weigh promotion count.

/** One collection: a minor one (a scavenge, `gc=s`) or a full one. */
export interface Collection {
  minor: boolean;
  pauseMs: number;
  /** Bytes the collection moved to the old generation (a scavenge's). */
  promoted: number;
  /** Bytes that survived in the young generation. */
  survived: number;
}

/** The collection a trace line reports, or undefined for any other line. */
export function collectionOf(line: string): Collection | undefined {
  if (!line.includes(' pause=')) return undefined;
  const kind = / gc=(\w+)/.exec(line)?.[1];
  if (kind === undefined) return undefined;
  const field = (name: string): number => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  return { minor: kind === 's', pauseMs: field('pause'), promoted: field('promoted'), survived: field('new_space_survived') };
}

/** Every collection in a trace's text. */
export function collectionsIn(text: string): Collection[] {
  return text.split('\n').flatMap((line) => collectionOf(line) ?? []);
}

/** The bytes the minor collections of `collections` promoted. */
export function promotedBytes(collections: readonly Collection[]): number {
  return collections.reduce((total, collection) => total + (collection.minor ? collection.promoted : 0), 0);
}
