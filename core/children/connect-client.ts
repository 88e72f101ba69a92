import { Client, type Transport } from '@modelcontextprotocol/client';
import { ChildEndedError, type ChildConnection, type ConnectContext } from './child-type.js';

export interface ConnectClientOptions {
  clientInfo: { name: string; version: string };
  /**
   * `legacy` runs the 2025 `initialize` handshake and never probes; `auto` probes with
   * `server/discover` unless the context brings a remembered verdict.
   */
  negotiation: 'legacy' | 'auto';
  /** Says why the connection ended, for status and logs (a process's last words). */
  describeClose?: () => string;
  /**
   * The transport closing before the handshake means the child itself ended (a process,
   * a container): the connect then fails with a ChildEndedError carrying `describeClose`.
   */
  endedIsFinal?: boolean;
}

/**
 * Connects an SDK client over `transport` on behalf of a child type: honours the start's
 * abort signal (the transport is closed, which ends a process or socket), passes the
 * remembered era verdict as `prior`, and reports an unasked close to the child.
 */
export async function connectClient(transport: Transport, context: ConnectContext, options: ConnectClientOptions): Promise<ChildConnection> {
  const client = new Client(options.clientInfo, options.negotiation === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
  const onAbort = (): void => void transport.close().catch(() => undefined);
  context.signal.addEventListener('abort', onAbort, { once: true });
  let endedEarly: string | undefined;
  client.onclose = () => {
    const reason = options.describeClose?.() ?? 'the connection closed';
    endedEarly ??= reason;
    context.onClosed(reason);
  };
  try {
    if (context.signal.aborted) throw context.signal.reason as Error;
    await client.connect(transport, context.prior === undefined ? undefined : { prior: context.prior });
  } catch (error) {
    await transport.close().catch(() => undefined);
    if (options.endedIsFinal && endedEarly !== undefined && !context.signal.aborted) throw new ChildEndedError(endedEarly, { cause: error });
    throw error;
  } finally {
    context.signal.removeEventListener('abort', onAbort);
  }
  return { client, close: () => client.close() };
}
