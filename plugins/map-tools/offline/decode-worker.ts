/**
 * The decoding thread's entry (see `./decoding.ts`): reads the extract named in
 * `workerData`, resolves way and relation references to positions in file order (it
 * keeps every node's and way's id for that), and posts each block in one buffer
 * (transferred, not copied). The loader
 * hands the buffers back, a few at a time, when done with them: they are the credits for
 * the next blocks, so the thread never runs more than a few blocks ahead and reuses the
 * buffers rather than allocate new ones. Messages are few (posting one costs a fraction
 * of a millisecond), so progress rides on the blocks.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MAP_ERROR_CODES } from '../error-codes.js';
import type { DecoderMessage } from './decoding.js';
import { ExtractFault } from './extract-fault.js';
import { References } from './ids.js';
import { readPbf, unpackBlock } from './reader.js';

/** Blocks decoded ahead of the loader: enough to keep both threads busy, few enough to bound memory. */
const AHEAD = 4;

const port = parentPort!;
const { file, expectedNodes } = workerData as { file: string; expectedNodes: number };
const references = new References(expectedNodes);
const spare: ArrayBuffer[] = [];
let credits = AHEAD;
let resume: (() => void) | undefined;
let bytesRead = 0;
port.on('message', (buffers: ArrayBuffer[]) => {
  spare.push(...buffers);
  credits += buffers.length;
  resume?.();
  resume = undefined;
});

const post = (message: DecoderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  await readPbf(file, {
    header: (header) => post({ kind: 'header', bounds: header.bounds }),
    block: async (block) => {
      if (credits === 0) await new Promise<void>((resolve) => (resume = resolve));
      credits--;
      // The largest buffer handed back: a smaller one is dropped when this block needs more.
      const packed = block.pack(spare.sort((a, b) => a.byteLength - b.byteLength).pop());
      references.add(unpackBlock(packed));
      post({ kind: 'block', block: packed, bytesRead }, [packed.buffer]);
    },
    progress: (bytes) => (bytesRead = bytes),
  });
  post({ kind: 'done', bytesRead });
} catch (error) {
  const code = error instanceof ExtractFault ? error.code : MAP_ERROR_CODES.EXTRACT_INVALID;
  post({ kind: 'error', code, message: error instanceof Error ? error.message : String(error) });
}
port.close();
