import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { isModernRequest, unsupportedRevisionAnswer } from './era-gate.js';

/**
 * The stdio side of a hub that serves only 2025-11-25 (the 2026-07-28 plugin disabled): a
 * 2026-07-28 request is answered with the unsupported-protocol-version error naming what
 * is served, as the HTTP endpoints answer it, instead of being served as legacy.
 */
export class LegacyOnlyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly served: string,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (isModernRequest(message)) return void this.inner.send(unsupportedRevisionAnswer(message, this.served)).catch((error: Error) => this.onerror?.(error));
      this.onmessage?.(message, extra);
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
