import type { ClientOptions, Transport } from '@modelcontextprotocol/client';
import { HUB_ERROR_CODES, HubError } from '../../errors.js';
import type { ChildWire } from '../../revisions/revision.js';
import { ChildEndedError, type ChildConnection, type ConnectContext } from '../child-type.js';
import { resultOf } from './plain-answer.js';
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
 * revisions the hub speaks to children (or speaks exactly `context.revision` when the hub
 * asks what the child shows a client of it), honours the start's abort signal (the
 * transport is closed, which ends a process or socket, and the connect fails only once it
 * has), passes the remembered negotiation as `prior`, reads results through the negotiated
 * revision's repair, and reports an unasked close to the child.
 */
export async function connectClient(given: Transport, context: ConnectContext, options: ConnectClientOptions): Promise<ChildConnection> {
  let negotiation: Pick<ClientOptions, 'versionNegotiation'>;
  try {
    negotiation = negotiationOf(context, options);
  } catch (error) {
    // Nothing was started on it, but a type may have made something behind it (a container).
    await given.close().catch(() => undefined);
    throw error;
  }
  const client = new PlainCallClient(options.clientInfo, negotiation);
  const probe = context.revision === undefined && context.wires.probe && (options.negotiation === 'auto' || !context.wires.handshake);
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
  // A transport whose handshake waits on something closing does not end (an SSE stream that
  // never names its endpoint): the abort fails the connect itself, once the close is done.
  let failConnect: (reason: unknown) => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => (failConnect = reject));
  // One close, awaited by a failed connect: what runs behind the transport (a process that
  // ignores its closed stdin) has ended when the connect says it failed.
  let closing: Promise<void> | undefined;
  // The transport closed before the hub closed it while probing: the child ended. The SDK
  // client reports that close to no one (the probe fails as unanswered), so the transport
  // is heard directly, and the failure is the child's when the type says an ended
  // transport is final.
  let connecting = true;
  // `boolean`, not the `false` it starts as: the transport's callback sets it while the connect is awaited.
  let endedWhileProbing = false as boolean;
  const transport = tolerantTransport(
    given,
    client.repair,
    () => (endedWhileProbing ||= probe && connecting && closing === undefined),
    // Only a response certainly a result by its shape: any other is the SDK's to judge first, as before.
    (response) => resultOf(response) !== undefined && client.claimPlainAnswer(response),
  );
  const close = (): Promise<void> => (closing ??= transport.close().catch(() => undefined));
  const onAbort = (): void => void close().then(() => failConnect(context.signal.reason));
  context.signal.addEventListener('abort', onAbort, { once: true });
  let endedEarly: string | undefined;
  let heardClose: () => void = () => undefined;
  const closeHeard = new Promise<void>((resolve) => (heardClose = resolve));
  client.onclose = () => {
    const reason = options.describeClose?.() ?? 'the connection closed';
    endedEarly ??= reason;
    heardClose();
    context.onClosed(reason);
  };
  try {
    if (context.signal.aborted) throw context.signal.reason as Error;
    await Promise.race([client.connect(transport, context.prior === undefined || !probe ? undefined : { prior: context.prior }), aborted]);
  } catch (error) {
    await close();
    // A write that found no reader (EPIPE) fails before the close is heard: the child ended
    // all the same, and says how once its close is heard (the SDK client's own close after a
    // failed connect may be the one that waits for it), or the start's budget ends.
    const wroteToEnded = options.endedIsFinal === true && (error as NodeJS.ErrnoException | undefined)?.code === 'EPIPE';
    if (wroteToEnded) await Promise.race([closeHeard, aborted.catch(() => undefined)]);
    const ended = endedEarly ?? (endedWhileProbing || wroteToEnded ? (options.describeClose?.() ?? 'the connection closed') : undefined);
    if (options.endedIsFinal && ended !== undefined && !context.signal.aborted) throw new ChildEndedError(ended, { cause: error });
    throw error;
  } finally {
    connecting = false;
    context.signal.removeEventListener('abort', onAbort);
  }
  return {
    client,
    close: () => client.close(),
    ...(options.plainToolCalls && { plainToolCall: (params, cancel) => client.plainToolCall(params, cancel) }),
  };
}

/**
 * The SDK client's negotiation: pinned to `context.revision` when the hub asks for one (a
 * revision found only by probing is refused to a type that does not probe, as the operator
 * asked of it); otherwise a probe where the type allows one, else the plain handshake.
 */
function negotiationOf(context: ConnectContext, options: ConnectClientOptions): Pick<ClientOptions, 'versionNegotiation'> {
  if (context.revision !== undefined) {
    const pinned = context.wires.wireOf(context.revision);
    if (!pinned) throw new HubError(HUB_ERROR_CODES.CHILD_REVISION_UNAVAILABLE, `MCP ${context.revision} is not spoken to servers`);
    if (pinned.probed && options.negotiation === 'legacy' && context.wires.handshake) {
      throw new HubError(HUB_ERROR_CODES.CHILD_REVISION_UNAVAILABLE, `MCP ${context.revision} is found only by probing, which this server's type does not do`);
    }
    return { versionNegotiation: pinned.pinned };
  }
  const probe = context.wires.probe && (options.negotiation === 'auto' || !context.wires.handshake);
  return probe ? { versionNegotiation: { mode: 'auto' } } : {};
}
