import type { IncomingMessage } from 'node:http';

/**
 * The most of a refused body the hub reads and throws away before it answers: beyond it
 * the connection is closed under the client, whose answer may then be lost.
 */
export const MAX_DISCARDED_BYTES = 32 * 1024 * 1024;

/**
 * Reads what is left of a request body the hub refuses, throwing it away, so that the
 * answer goes out on a connection whose unread bytes are all consumed. Closing a socket
 * with bytes still unread sends a reset instead of an orderly close, and the client's
 * kernel then drops the answer it had not yet read (the client sees EPIPE or ECONNRESET
 * rather than the 413). Resolves true once the body has ended, false when it is larger
 * than `bound` or the request ended otherwise (the server's request timeout bounds how
 * long a slow client can hold it). Written by hand: what is needed is a bounded drain of
 * a stream Fastify has already started reading, which no body library offers.
 */
export function discardBody(request: IncomingMessage, bound = MAX_DISCARDED_BYTES): Promise<boolean> {
  if (request.complete || request.readableEnded) return Promise.resolve(true);
  if (request.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (drained: boolean): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onFailure);
      request.off('close', onFailure);
      resolve(drained);
    };
    const onData = (chunk: Buffer): void => {
      read += chunk.byteLength;
      if (read > bound) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onFailure = (): void => finish(request.complete);
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('error', onFailure);
    request.once('close', onFailure);
    request.resume();
  });
}
