import { Worker } from 'node:worker_threads';
import { MAP_ERROR_CODES } from '../error-codes.js';
import { ExtractFault } from './extract-fault.js';
import { unpackBlock, type BlockData, type Bounds, type PackedBlock } from './reader.js';
import { HubError } from '../../../core/plugin/errors.js';

export type DecoderMessage =
  | { kind: 'header'; bounds: Bounds | undefined }
  /** A block, and the bytes of the file read before it. */
  | { kind: 'block'; block: PackedBlock; bytesRead: number }
  | { kind: 'done'; bytesRead: number }
  | { kind: 'error'; code: ExtractFault['code']; message: string };

/** Buffers handed back per message: half of what the decoding thread may have out. */
const RETURN_EVERY = 2;

export interface BlockHandlers {
  header(bounds: Bounds | undefined): void;
  /** Each block, in file order; its arrays are the handler's only until it returns. */
  block(data: BlockData): void;
  progress(bytesRead: number): void;
}

/**
 * Reads an extract with the inflating, decoding and reference lookups on a thread of
 * their own (`./decode-worker.ts`), so they run while the loader digests the blocks
 * before; the handlers run here, in file order. `expectedNodes` sizes the id column.
 */
export function readBlocks(file: string, expectedNodes: number, handlers: BlockHandlers, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./decode-worker.js', import.meta.url), { workerData: { file, expectedNodes } });
    let settled = false;
    /** Buffers done with, handed back to the decoding thread together. */
    let done: ArrayBuffer[] = [];
    /** False when the promise was settled already. */
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      signal?.removeEventListener('abort', abort);
      return true;
    };
    // Whatever a handler throws fails the read, even `undefined`.
    const fail = (error: unknown) => {
      if (!settle()) return;
      void worker.terminate();
      reject(error);
    };
    const abort = () => fail(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (message: DecoderMessage) => {
      if (settled) return;
      try {
        if (message.kind === 'block') {
          handlers.progress(message.bytesRead);
          handlers.block(unpackBlock(message.block));
          done.push(message.block.buffer);
          if (done.length >= RETURN_EVERY) {
            worker.postMessage(done, done);
            done = [];
          }
        } else if (message.kind === 'header') handlers.header(message.bounds);
        else if (message.kind === 'done') {
          handlers.progress(message.bytesRead);
          if (settle()) resolve();
        } else fail(new HubError(message.code, message.message));
      } catch (error) {
        fail(error instanceof ExtractFault ? new HubError(error.code, error.message, { cause: error }) : error);
      }
    });
    worker.on('error', (error) => fail(error));
    worker.on('exit', (code) => fail(new HubError(MAP_ERROR_CODES.DECODER_STOPPED, `the decoding thread of ${file} stopped (exit code ${code})`)));
  });
}
