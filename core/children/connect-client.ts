import type { Transport } from '@modelcontextprotocol/client';
import { ChildEndedError, type ChildConnection, type ConnectContext } from './child-type.js';
import { PlainCallClient } from './plain-call-client.js';
import { tolerantTransport } from './tolerant-transport.js';

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
  /** Told when a result without `resultType` is read as complete; by default logged once per connection. */
  onRepaired?: () => void;
  /**
   * The transport carries whole JSON-RPC messages both ways (stdio, a socket), so a plain
   * `tools/call` can share it with the SDK client (see plain-call-client.ts).
   */
  plainToolCalls?: boolean;
}

/** Logs, once, that the server leaves out what 2026-07-28 requires and how the hub reads it. */
export function warnOnceOfRepairs(context: Pick<ConnectContext, 'log' | 'name'>): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    context.log.warn('the server leaves resultType out of its results, which 2026-07-28 requires; they are read as complete');
  };
}

/**
 * Connects an SDK client over `transport` on behalf of a child type: honours the start's
 * abort signal (the transport is closed, which ends a process or socket), passes the
 * remembered era verdict as `prior`, and reports an unasked close to the child.
 */
export async function connectClient(given: Transport, context: ConnectContext, options: ConnectClientOptions): Promise<ChildConnection> {
  const client = new PlainCallClient(options.clientInfo, options.negotiation === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = tolerantTransport(given, { isModern: () => client.getProtocolEra() === 'modern', onRepaired: options.onRepaired ?? warnOnceOfRepairs(context) });
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
  return {
    client,
    close: () => client.close(),
    ...(options.plainToolCalls && { plainToolCall: (params, signal) => client.plainToolCall(params, signal) }),
  };
}
