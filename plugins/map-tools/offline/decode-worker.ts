/**
 * The decoding thread's entry (see `./decoding.ts`): reads the extract named in
 * `workerData`, resolves way and relation references to positions in file order (it
 * keeps every node's and way's id for that), and posts each block in one buffer
 * (transferred, not copied). The loader hands each buffer back when done with it: that is
 * the credit for the next block, so the thread never runs more than a few blocks ahead
 * and reuses the buffers rather than allocate new ones.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DecoderMessage } from './decoding.js';
import { Growable } from './growable.js';
import { IdIndex } from './ids.js';
import { readPbf, type BlockData } from './reader.js';

/** Blocks decoded ahead of the loader: enough to keep both threads busy, few enough to bound memory. */
const AHEAD = 4;
const NODE = 0;
const WAY = 1;

const port = parentPort!;
const { file } = workerData as { file: string };
const spare: ArrayBuffer[] = [];
let credits = AHEAD;
let resume: (() => void) | undefined;
port.on('message', (buffer: ArrayBuffer) => {
  spare.push(buffer);
  credits++;
  resume?.();
  resume = undefined;
});

const nodeIds = new Growable(Float64Array, 1 << 16);
const wayIds = new Growable(Float64Array, 1 << 14);
let nodes: IdIndex | undefined;
let ways: IdIndex | undefined;

function append(ids: Growable<Float64Array>, more: Float64Array): void {
  ids.ensure(more.length).set(more, ids.length);
  ids.length += more.length;
}

/** Each way reference as the position of its node, -1 where the extract cut it off. */
function resolveWays({ ways: { refs, nodes: positions } }: BlockData): void {
  if (refs.length === 0) return;
  // Ways come after every node: the node ids are complete now.
  nodes ??= new IdIndex(nodeIds.view());
  let near = -1;
  for (let r = 0; r < refs.length; r++) {
    const found = nodes.find(refs[r]!, near);
    if (found < 0) continue;
    near = found;
    positions[r] = nodes.position(found);
  }
}

/** Each relation member that is a node or a way as its position; relations and missing members stay -1. */
function resolveMembers({ relations: { memberIds, memberKinds, positions } }: BlockData): void {
  if (memberIds.length === 0) return;
  nodes ??= new IdIndex(nodeIds.view());
  ways ??= new IdIndex(wayIds.view());
  for (let m = 0; m < memberIds.length; m++) {
    const index = memberKinds[m] === NODE ? nodes : memberKinds[m] === WAY ? ways : undefined;
    const found = index ? index.find(memberIds[m]!) : -1;
    if (index && found >= 0) positions[m] = index.position(found);
  }
}

const post = (message: DecoderMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

try {
  await readPbf(file, {
    header: (header) => post({ kind: 'header', bounds: header.bounds }),
    block: async (block) => {
      if (credits === 0) await new Promise<void>((resolve) => (resume = resolve));
      credits--;
      // The largest buffer handed back: a smaller one is dropped when this block needs more.
      const data = block.toData(spare.sort((a, b) => a.byteLength - b.byteLength).pop());
      append(nodeIds, data.nodes.ids);
      resolveWays(data);
      resolveMembers(data);
      append(wayIds, data.ways.ids);
      post({ kind: 'block', data }, [data.buffer]);
    },
    progress: (bytesRead) => post({ kind: 'progress', bytesRead }),
  });
  post({ kind: 'done' });
} catch (error) {
  post({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
}
port.close();
