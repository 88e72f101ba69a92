import type { Writable } from 'node:stream';
import { serializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

/** A transport's `send` that batches (see `batchedSend`). */
export interface BatchedSend {
  (message: JSONRPCMessage): Promise<void>;
  /**
   * The same send without a promise, for the hub's plain road, which waits for the answer
   * rather than for the write: `failed` hears the batch's failure, and nothing is made for
   * the success that nearly every send has.
   */
  readonly post: (message: JSONRPCMessage, failed: (error: Error) => void) => void;
}

/**
 * A transport's `send` for newline-delimited JSON-RPC on a stream (a process's stdin, a
 * container's attach stream): the messages sent in one turn of the event loop go out in one
 * write, once that turn's I/O has been handled. Calls that arrive together (several
 * callers' requests read in the same turn) then cost one write to the child, and one
 * wake-up of it, instead of one each; a lone call waits for nothing but the end of its turn.
 * `stream` is read when the batch is written; without one (the connection ended), every
 * message of the batch is refused with `closed()`. Each send settles when its batch has been
 * handed to the stream (or failed).
 */
export function batchedSend(stream: () => Writable | undefined, closed: () => Error): BatchedSend {
  let texts: string[] = [];
  // Per message: what hears the write (undefined for a `post`) and what hears its failure.
  let sent: Array<(() => void) | undefined> = [];
  let failed: Array<(error: Error) => void> = [];
  const flush = (): void => {
    const text = texts.join('');
    const hearSent = sent;
    const hearFailed = failed;
    texts = [];
    sent = [];
    failed = [];
    const target = stream();
    if (!target || target.destroyed || target.writableEnded) {
      const error = closed();
      for (const hear of hearFailed) hear(error);
      return;
    }
    target.write(text, (error) => {
      if (error) for (const hear of hearFailed) hear(error);
      else for (const hear of hearSent) hear?.();
    });
  };
  const post = (message: JSONRPCMessage, onFailed: (error: Error) => void, onSent?: () => void): void => {
    if (texts.length === 0) setImmediate(flush);
    texts.push(serializeMessage(message));
    sent.push(onSent);
    failed.push(onFailed);
  };
  const send = (message: JSONRPCMessage): Promise<void> => new Promise<void>((resolve, reject) => post(message, reject, resolve));
  send.post = (message: JSONRPCMessage, onFailed: (error: Error) => void): void => post(message, onFailed);
  return send;
}
