import type { Socket } from 'node:net';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { HUB_ERROR_CODES, HubError } from '../../core/plugin/index.js';
import { batchedSend, PlainReadBuffer, readMessages } from '../../core/plugin/child-type.js';

/**
 * Newline-delimited JSON-RPC over a stream socket (unix or TCP), the same framing as
 * stdio. It works on either end: the hub passes a connecting socket, a server an
 * accepted one.
 */
export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new PlainReadBuffer();
  #closed = false;

  constructor(private readonly socket: Socket) {}

  async start(): Promise<void> {
    const { socket } = this;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      readMessages(this.#buffer, this.onmessage, this.onerror);
    });
    socket.on('error', (error) => this.onerror?.(error));
    socket.on('close', () => this.#finish());
    if (socket.connecting) {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
    }
  }

  /** The messages of one turn of the event loop in one write (see `batchedSend`). */
  readonly send = batchedSend(
    () => (this.#closed || this.socket.destroyed ? undefined : this.socket),
    () => new HubError(HUB_ERROR_CODES.CONNECTION_CLOSED, 'the socket is closed'),
  );

  async close(): Promise<void> {
    this.socket.destroy();
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.onclose?.();
  }
}
