import type { Writable } from 'node:stream';
import { serializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

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
export function batchedSend(stream: () => Writable | undefined, closed: () => Error): (message: JSONRPCMessage) => Promise<void> {
  let texts: string[] = [];
  let resolves: Array<() => void> = [];
  let rejects: Array<(error: Error) => void> = [];
  const flush = (): void => {
    const text = texts.join('');
    const resolved = resolves;
    const rejected = rejects;
    texts = [];
    resolves = [];
    rejects = [];
    const target = stream();
    if (!target || target.destroyed || target.writableEnded) {
      const error = closed();
      for (const reject of rejected) reject(error);
      return;
    }
    target.write(text, (error) => {
      if (error) for (const reject of rejected) reject(error);
      else for (const resolve of resolved) resolve();
    });
  };
  return (message) =>
    new Promise<void>((resolve, reject) => {
      if (texts.length === 0) setImmediate(flush);
      texts.push(serializeMessage(message));
      resolves.push(resolve);
      rejects.push(reject);
    });
}
