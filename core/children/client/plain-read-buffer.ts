import { parseJSONRPCMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { HUB_ERROR_CODES, HubError } from '../../errors.js';
import { resultOf } from './plain-answer.js';

/**
 * The SDK's `ReadBuffer` (newline-delimited JSON-RPC, as stdio and sockets carry it), with
 * the same bound, framing and refusals, reading the commonest message from a child, a
 * result response, by its shape (plain-answer.ts `resultOf`) rather than with the schema
 * library; every other message is read by the SDK's schema as before. A line that is not
 * JSON is skipped, and one that is JSON but not JSON-RPC throws, as the SDK's does.
 */
export class PlainReadBuffer {
  #buffer: Buffer | undefined;

  constructor(private readonly maxBufferSize: number = STDIO_DEFAULT_MAX_BUFFER_SIZE) {}

  append(chunk: Buffer): void {
    if ((this.#buffer?.length ?? 0) + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new HubError(HUB_ERROR_CODES.ANSWER_TOO_LARGE, `ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.#buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    while (this.#buffer) {
      const end = this.#buffer.indexOf(10);
      if (end === -1) return null;
      const line = this.#buffer.toString('utf8', 0, end).replace(/\r$/, '');
      this.#buffer = this.#buffer.subarray(end + 1);
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      return resultOf(value) ? (value as JSONRPCMessage) : parseJSONRPCMessage(value);
    }
    return null;
  }

  clear(): void {
    this.#buffer = undefined;
  }
}
