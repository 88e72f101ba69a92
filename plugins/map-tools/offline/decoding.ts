import { Worker } from 'node:worker_threads';
import type { BlockData, Bounds } from './reader.js';

export type DecoderMessage =
  | { kind: 'header'; bounds: Bounds | undefined }
  /** A block with its references resolved to positions in file order. */
  | { kind: 'block'; data: BlockData }
  | { kind: 'progress'; bytesRead: number }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

export interface BlockHandlers {
  header(bounds: Bounds | undefined): void;
  /** Each block, in file order; its arrays are the handler's only until it returns. */
  block(data: BlockData): void;
  progress(bytesRead: number): void;
}

/**
 * Reads an extract with the inflating, decoding and reference lookups on a thread of
 * their own (`./decode-worker.ts`), so they run while the loader digests the blocks
 * before; the handlers run here, in file order.
 */
export function readBlocks(file: string, handlers: BlockHandlers, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./decode-worker.js', import.meta.url), { workerData: { file } });
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      if (error === undefined) resolve();
      else {
        void worker.terminate();
        reject(error);
      }
    };
    const abort = () => finish(signal?.reason);
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (message: DecoderMessage) => {
      if (settled) return;
      try {
        if (message.kind === 'block') {
          handlers.block(message.data);
          worker.postMessage(message.data.buffer, [message.data.buffer]);
        } else if (message.kind === 'header') handlers.header(message.bounds);
        else if (message.kind === 'progress') handlers.progress(message.bytesRead);
        else if (message.kind === 'done') finish();
        else finish(new Error(message.message));
      } catch (error) {
        finish(error);
      }
    });
    worker.on('error', (error) => finish(error));
    worker.on('exit', (code) => finish(new Error(`the decoding thread of ${file} stopped (exit code ${code})`)));
  });
}
