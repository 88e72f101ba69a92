import { Worker } from 'node:worker_threads';
import type { BlockData, Bounds } from './reader.js';

export interface BlockHandlers {
  header(bounds: Bounds | undefined): void;
  block(data: BlockData): void;
  progress(bytesRead: number): void;
}

type Message =
  | { kind: 'header'; bounds: Bounds | undefined }
  | { kind: 'block'; data: BlockData }
  | { kind: 'progress'; bytesRead: number }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

/**
 * Reads an extract with the inflating and decoding on a thread of its own, so they run
 * while the loader digests the blocks before; handlers run here, in file order.
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
    worker.on('message', (message: Message) => {
      if (settled) return;
      try {
        if (message.kind === 'block') {
          handlers.block(message.data);
          worker.postMessage('next');
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
