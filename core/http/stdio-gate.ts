import { isJSONRPCRequest, type JSONRPCMessage, type Transport, type TransportSendOptions } from '@modelcontextprotocol/server';
import { unsupportedRevisionAnswer } from '../revisions/revision-gate.js';
import type { ServedRevision } from '../revisions/served-revision.js';

/**
 * The stdio side of the revision gate: a message no served revision claims (its plugin
 * is disabled) is answered with the unsupported-protocol-version error naming what is
 * served, as the HTTP endpoints answer it, and never reaches a server. A stdio session
 * speaks one revision: the one that claimed its first message.
 */
export class StdioRevisionGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** The revision of the session, once a message was claimed. */
  revision: ServedRevision | undefined;

  constructor(
    private readonly inner: Transport,
    private readonly revisions: readonly ServedRevision[],
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      const claimed = this.revisions.find((revision) => revision.servesMessage(message));
      if (claimed) {
        this.revision ??= claimed;
        return this.onmessage?.(message, extra);
      }
      if (isJSONRPCRequest(message)) {
        const refusal = unsupportedRevisionAnswer({ method: 'POST', headers: {}, body: message }, this.revisions);
        void this.inner.send(refusal).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
      }
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
