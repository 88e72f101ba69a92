import type { Socket } from 'node:net';
import { ReadBuffer, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { HUB_ERROR_CODES, HubError } from '../../core/plugin/index.js';
import { readMessages } from '../../core/plugin/child-type.js';

/**
 * Newline-delimited JSON-RPC over a stream socket (unix or TCP), the same framing as
 * stdio. It works on either end: the hub passes a connecting socket, a server an
 * accepted one.
 */
export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();
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

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#closed || this.socket.destroyed) {
        reject(new HubError(HUB_ERROR_CODES.CONNECTION_CLOSED, 'the socket is closed'));
        return;
      }
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

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
