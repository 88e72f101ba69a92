import { stat } from 'node:fs/promises';
import { ElementStoreBuilder, type ElementStore } from './elements.js';
import { readPbf } from './reader.js';

/** Files above this size get progress lines in the log while they load. */
const PROGRESS_FROM_BYTES = 50 * 1024 * 1024;

export type Log = (line: string) => void;

/** Reads an extract into an element store, with progress lines for large files. */
export async function loadElements(file: string, log: Log): Promise<ElementStore> {
  const size = (await stat(file)).size;
  const builder = new ElementStoreBuilder();
  let reported = 0;
  await readPbf(file, {
    node: (node) => builder.node(node),
    way: (way) => builder.way(way),
    relation: (relation) => builder.relation(relation),
    progress: (fraction) => {
      const tenth = Math.floor(fraction * 10);
      if (size >= PROGRESS_FROM_BYTES && tenth > reported) {
        reported = tenth;
        log(`offline map: read ${tenth * 10}% of ${file}`);
      }
    },
  });
  return builder.finish();
}
