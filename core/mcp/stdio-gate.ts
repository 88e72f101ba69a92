import { isJSONRPCRequest, type JSONRPCMessage, type Transport, type TransportSendOptions } from '@modelcontextprotocol/server';
import type { McpEra } from './era.js';
import { unsupportedRevisionAnswer } from './revision-gate.js';

/**
 * The stdio side of the revision gate: a message no registered era claims (its
 * revision's plugin is disabled) is answered with the unsupported-protocol-version error
 * naming what is served, as the HTTP endpoints answer it, and never reaches a server.
 */
export class StdioRevisionGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly eras: readonly McpEra[],
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (this.eras.some((era) => era.claimsMessage(message))) return this.onmessage?.(message, extra);
      if (isJSONRPCRequest(message)) void this.inner.send(unsupportedRevisionAnswer(message, undefined, this.eras)).catch((error: Error) => this.onerror?.(error));
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
