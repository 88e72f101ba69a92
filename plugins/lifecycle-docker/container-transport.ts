import type { Duplex } from 'node:stream';
import { Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type Docker from 'dockerode';
import { removeContainer } from './engine.js';
import { DOCKER_ERROR_CODES } from './errors.js';
import { batchedSend, PlainReadBuffer, readMessages, type StderrLog } from '../../core/plugin/child-type.js';
import { HUB_ERROR_CODES, HubError } from '../../core/plugin/index.js';

export interface ContainerTransportOptions {
  docker: Docker;
  /** Created, not started: the transport attaches before it starts, so no output is missed. */
  container: Docker.Container;
  /** A line from the container longer than this ends the connection and the container. */
  maxMessageBytes: number;
  stderr: StderrLog;
  /** Called once the container is removed, whoever ended it. */
  onRemoved(): void;
}

/**
 * The MCP client transport to a server in a container: newline-delimited JSON-RPC (the
 * stdio framing) over the engine's attach stream, stdout and stderr demultiplexed apart.
 * It owns the container: closing the transport kills and removes it, and when the
 * container ends on its own it is removed before `onclose`. Input is bounded: a message
 * that grows past `maxMessageBytes` without its newline is not buffered further, the
 * container is cut off, and `ended` says so.
 */
export class ContainerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the connection ended, once it has: an exit code, or a cut-off. */
  ended: string | undefined;
  readonly #options: ContainerTransportOptions;
  readonly #buffer: PlainReadBuffer;
  #stream: Duplex | undefined;
  #exitCode: Promise<number | undefined> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ContainerTransportOptions) {
    this.#options = options;
    this.#buffer = new PlainReadBuffer(options.maxMessageBytes);
  }

  async start(): Promise<void> {
    const { docker, container } = this.#options;
    const stream = await attach(docker, container.id);
    this.#stream = stream;
    if (this.#closing) {
      stream.destroy();
      throw new HubError(HUB_ERROR_CODES.CONNECTION_CLOSED, 'the connection was closed while starting');
    }
    const stdout = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.#receive(chunk);
        done();
      },
    });
    const stderr = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        this.#options.stderr.write(chunk);
        done();
      },
    });
    // The engine frames output in pieces of its own read size, so the demultiplexer holds
    // at most one such frame; the message bound below applies across frames.
    docker.modem.demuxStream(stream, stdout, stderr);
    stream.on('error', (error: Error) => this.onerror?.(error));
    stream.on('close', () => void this.#end());
    await container.start();
    this.#exitCode = container.wait().then(
      (result: { StatusCode?: number }) => result.StatusCode,
      () => undefined,
    );
  }

  /** The messages of one turn of the event loop in one write (see `batchedSend`). */
  readonly send = batchedSend(
    () => (this.#closing ? undefined : this.#stream),
    () => new HubError(HUB_ERROR_CODES.CONNECTION_CLOSED, 'the container connection is closed'),
  );

  /** Ends the connection and removes the container; resolves once it is gone. */
  close(): Promise<void> {
    this.#closing ??= this.#finish();
    return this.#closing;
  }

  #receive(chunk: Buffer): void {
    // Line by line, so the bound applies to each message and not to a burst of small ones.
    let rest = chunk;
    while (rest.length > 0 && !this.#closing) {
      const newline = rest.indexOf(0x0a);
      const piece = newline === -1 ? rest : rest.subarray(0, newline + 1);
      rest = rest.subarray(piece.length);
      try {
        this.#buffer.append(piece);
      } catch (error) {
        this.ended = `the container was cut off: it sent more than ${this.#options.maxMessageBytes} bytes without ending a message`;
        this.onerror?.(new HubError(DOCKER_ERROR_CODES.MESSAGE_TOO_LARGE, this.ended, { cause: error }));
        void this.close().catch(() => undefined);
        return;
      }
      this.#deliver();
    }
  }

  #deliver(): void {
    readMessages(this.#buffer, this.onmessage, this.onerror);
  }

  /** The attach stream ended: the container exited (or the engine dropped us). */
  async #end(): Promise<void> {
    if (this.#closing) return;
    const code = await Promise.race([this.#exitCode ?? Promise.resolve(undefined), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2_000).unref())]);
    this.ended ??= code === undefined ? 'the container stream ended' : `the container exited with code ${code}`;
    await this.close().catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  async #finish(): Promise<void> {
    this.#stream?.destroy();
    this.#buffer.clear();
    this.#options.stderr.end();
    try {
      await removeContainer(this.#options.container);
      this.#options.onRemoved();
    } finally {
      this.onclose?.();
    }
  }
}

/**
 * A hijacked attach to stdin, stdout and stderr. Dialled here rather than with
 * `container.attach`, which also sends its options as a JSON request body that the
 * engine then delivers to the container's stdin (dockerode issue 742): the body here is
 * empty, so stdin carries the MCP messages alone.
 */
function attach(docker: Docker, id: string): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    docker.modem.dial(
      {
        path: `/containers/${encodeURIComponent(id)}/attach?`,
        method: 'POST',
        options: { stream: true, stdin: true, stdout: true, stderr: true },
        file: Buffer.alloc(0),
        hijack: true,
        openStdin: true,
        isStream: true,
        statusCodes: { 101: true, 200: true, 404: 'no such container', 500: 'server error' },
      },
      (error, stream) => (error ? reject(error) : resolve(stream as Duplex)),
    );
  });
}
