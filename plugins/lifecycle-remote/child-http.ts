import { STDIO_DEFAULT_MAX_BUFFER_SIZE, type FetchLike } from '@modelcontextprotocol/client';
import type { Dispatcher } from 'undici';
import { HUB_ERROR_CODES, HubError } from '../../core/plugin/index.js';
import { isListen, listenAsEvents } from './json-lines.js';

/**
 * An idle kept-alive connection is closed after this long: below the 5 s that Node
 * servers keep one open, so the hub seldom sends on a connection the server is closing.
 * undici believes a server that announces a shorter `Keep-Alive: timeout`.
 */
const IDLE_CONNECTION_MS = 4_000;

/** undici's own: an answer other than a long-lived stream that stays silent this long is cut off. */
export const DEFAULT_BODY_TIMEOUT_MS = 300_000;

/** An answer larger than a child may send (the limit a stdio message has). */
export class AnswerTooLargeError extends HubError {
  override readonly name = 'AnswerTooLargeError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(HUB_ERROR_CODES.ANSWER_TOO_LARGE, message, options);
  }
}

export interface ChildHttp {
  /** For the SDK's transports: answers other than event streams are bounded. */
  fetch: FetchLike;
  /** The same connections for the plain road, which reads answers itself. */
  dispatcher: Dispatcher;
  /** The largest answer (other than an event stream) accepted. */
  maxBytes: number;
  /** Closes the connections; for when the child's connection ends. */
  close(): Promise<void>;
}

export interface ChildHttpOptions {
  /** The largest answer (other than an event stream) accepted. */
  maxBytes?: number;
  /** How long an answer other than a long-lived stream may stay silent (undici's `bodyTimeout`). */
  bodyTimeoutMs?: number;
}

/**
 * The HTTP connections of one remote child: kept alive between calls, shared by the SDK's
 * transport and the plain road, and closed with the child's connection. undici never
 * sends a request twice unless it is idempotent, so a POST that met a closing connection
 * fails instead of running a tool a second time. A request that opens a stream meant to
 * stay quiet for as long as nothing happens (a `subscriptions/listen`, the GET of a
 * server's event stream) has no body timeout: undici's would end it after five quiet
 * minutes.
 */
export async function childHttp({ maxBytes = STDIO_DEFAULT_MAX_BUFFER_SIZE, bodyTimeoutMs = DEFAULT_BODY_TIMEOUT_MS }: ChildHttpOptions = {}): Promise<ChildHttp> {
  // Imported by the first remote connection: a hub without remote servers never needs undici.
  const { Agent, fetch: undiciFetch } = await import('undici');
  const agent = new Agent({ keepAliveTimeout: IDLE_CONNECTION_MS, keepAliveMaxTimeout: IDLE_CONNECTION_MS, bodyTimeout: bodyTimeoutMs });
  // The same connections; only the request's own body timeout differs.
  const streams = agent.compose((dispatch) => (options, handler) => dispatch({ ...options, bodyTimeout: 0 }, handler));
  return {
    fetch: async (input, init) => {
      const signal = followed(init?.signal);
      const dispatcher = opensStream(init) ? streams : agent;
      try {
        const response = (await undiciFetch(input, { ...(init as object), signal: signal.signal, dispatcher })) as unknown as Response;
        return releasedAtEnd(bounded(listenAsEvents(init?.body, response, maxBytes), maxBytes), signal.release);
      } catch (error) {
        signal.release();
        throw error;
      }
    },
    dispatcher: agent,
    maxBytes,
    async close() {
      await agent.destroy();
    },
  };
}

/** Whether a request opens a long-lived stream: a listen, or the GET of the server's own stream. */
function opensStream(init: RequestInit | undefined): boolean {
  return (init?.method ?? 'GET').toUpperCase() === 'GET' || isListen(init?.body);
}

interface FollowedSignal {
  signal: AbortSignal | undefined;
  release: () => void;
}

/**
 * A request's own signal that follows the caller's. The SDK's transport passes one signal
 * for its whole life to every request; undici's Request hangs a listener on it that only
 * garbage collection removes, so thousands of calls piled them up (MaxListenersExceeded,
 * a growing heap). Here one listener per request is removed when its answer has been read.
 */
function followed(outer: AbortSignal | null | undefined): FollowedSignal {
  if (!outer) return { signal: undefined, release: () => undefined };
  if (outer.aborted) return { signal: outer, release: () => undefined };
  const inner = new AbortController();
  const abort = (): void => inner.abort(outer.reason);
  outer.addEventListener('abort', abort, { once: true });
  return { signal: inner.signal, release: () => outer.removeEventListener('abort', abort) };
}

/** The answer with `release` called once its body has been read to the end, failed or been cancelled. */
function releasedAtEnd(response: Response, release: () => void): Response {
  if (response.body === null) {
    release();
    return response;
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    async cancel(reason) {
      release();
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** An event stream is passed on as it arrives; any other answer is cut off past `maxBytes`. */
function bounded(response: Response, maxBytes: number): Response {
  if (response.body === null || response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
  if (Number(response.headers.get('content-length')) > maxBytes) {
    void response.body.cancel();
    throw new AnswerTooLargeError(`the answer is larger than ${maxBytes} bytes`);
  }
  let size = 0;
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > maxBytes) controller.error(new AnswerTooLargeError(`the answer is larger than ${maxBytes} bytes`));
      else controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(limit), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Reads a whole answer body, refusing one past `maxBytes`. */
export async function readBounded(body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown }, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      const error = new AnswerTooLargeError(`the answer is larger than ${maxBytes} bytes`);
      body.destroy(error);
      throw error;
    }
    chunks.push(Buffer.from(chunk));
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
}
