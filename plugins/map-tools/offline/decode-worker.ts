/**
 * The decoding thread's entry (see `./decoding.ts`): reads the extract named in
 * `workerData`, posting each block's arrays (transferred, not copied) and waiting for a
 * credit back before it runs more than a few blocks ahead of the loader.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { blockBuffers, readPbf } from './reader.js';

/** Blocks decoded ahead of the loader: enough to keep both threads busy, few enough to bound memory. */
const AHEAD = 4;

const port = parentPort!;
const { file } = workerData as { file: string };
let credits = AHEAD;
let resume: (() => void) | undefined;
port.on('message', () => {
  credits++;
  resume?.();
  resume = undefined;
});

try {
  await readPbf(file, {
    header: (header) => port.postMessage({ kind: 'header', bounds: header.bounds }),
    block: async (block) => {
      if (credits === 0) await new Promise<void>((resolve) => (resume = resolve));
      credits--;
      const data = block.toData();
      port.postMessage({ kind: 'block', data }, blockBuffers(data));
    },
    progress: (bytesRead) => port.postMessage({ kind: 'progress', bytesRead }),
  });
  port.postMessage({ kind: 'done' });
} catch (error) {
  port.postMessage({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
}
port.close();
