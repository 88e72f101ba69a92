import type { Transport } from '@modelcontextprotocol/client';
import type { ChildWire } from '../mcp/revision.js';
import { ChildEndedError, type ChildConnection, type ConnectContext } from './child-type.js';
import { PlainCallClient } from './plain-call-client.js';
import { tolerantTransport } from './tolerant-transport.js';

export interface ConnectClientOptions {
  clientInfo: { name: string; version: string };
  /**
   * `auto` lets the SDK client probe for the revisions found only by probing (when the hub
   * speaks one to children), and remembers what it found; `legacy` runs the plain
   * handshake only, for a transport that carries nothing else (the old HTTP+SSE) or where a
   * probe costs too much (a stdio start), unless no revision the hub speaks is found that
   * way.
   */
  negotiation: 'legacy' | 'auto';
  /** Says why the connection ended, for status and logs (a process's last words). */
  describeClose?: () => string;
  /**
   * The transport closing before the handshake means the child itself ended (a process,
   * a container): the connect then fails with a ChildEndedError carrying `describeClose`.
   */
  endedIsFinal?: boolean;
  /** Told when a result the child left incomplete is repaired; by default logged once per connection. */
  onRepaired?: () => void;
  /**
   * The transport carries whole JSON-RPC messages both ways (stdio, a socket), so a plain
   * `tools/call` can share it with the SDK client (see plain-call-client.ts).
   */
  plainToolCalls?: boolean;
}

/** Logs, once, that the server leaves out of its results what its revision requires, and how the hub reads them. */
export function warnOnceOfRepairs(context: Pick<ConnectContext, 'log' | 'name'>): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    context.log.warn("the server's results leave out what its MCP revision requires (their kind); they are read as complete results");
  };
}

/**
 * Connects an SDK client over `transport` on behalf of a child type: negotiates among the
 * revisions the hub speaks to children, honours the start's abort signal (the transport is
 * closed, which ends a process or socket), passes the remembered negotiation as `prior`,
 * reads results through the negotiated revision's repair, and reports an unasked close to
 * the child.
 */
export async function connectClient(given: Transport, context: ConnectContext, options: ConnectClientOptions): Promise<ChildConnection> {
  const probe = context.wires.probe && (options.negotiation === 'auto' || !context.wires.handshake);
  const client = new PlainCallClient(options.clientInfo, probe ? { versionNegotiation: { mode: 'auto' } } : {});
  const onRepaired = options.onRepaired ?? warnOnceOfRepairs(context);
  let wire: ChildWire | undefined;
  // Found once the handshake has negotiated a revision; before, nothing is repaired.
  const negotiated = (): ChildWire | undefined => (wire ??= context.wires.wireFor(client.getNegotiatedProtocolVersion()));
  client.repair = (result) => {
    const repaired = negotiated()?.repair(result);
    if (repaired !== undefined) onRepaired();
    return repaired;
  };
  client.unwrap = (result) => negotiated()?.plainResult?.(result);
  const transport = tolerantTransport(given, client.repair);
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
    await client.connect(transport, context.prior === undefined || !probe ? undefined : { prior: context.prior });
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
