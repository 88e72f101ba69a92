import type { LoggingLevel, ServerContext, ServerNotification } from '@modelcontextprotocol/server';
import type { AccessRecord } from '../access-log.js';
import type { ToolCallEvent } from '../observe.js';
import { callerServers } from '../http/authenticator.js';
import type { SdkExchange } from '../http/sdk-exchange.js';
import type { ServedRevision } from '../revisions/served-revision.js';

/**
 * What forwarding a call needs of the caller's request, whichever road it came by: the
 * SDK's server (`callerRequestOf` reads its context) or the fast road, which has no SDK
 * server behind it.
 */
export interface CallerRequest {
  /** The request's `_meta`, as the caller sent it. */
  readonly meta: Record<string, unknown> | undefined;
  /** The per-request envelope the revision lifted from `_meta` (`{}` on a revision without one). */
  readonly envelope: Record<string, unknown>;
  /** Aborted when the caller cancels or goes away. */
  readonly signal: AbortSignal;
  /**
   * Hears the caller's cancellation like `signal`, without making one; returns the
   * unsubscribe. Given by the fast road, where a call that is never cancelled then costs no
   * AbortSignal; absent on the SDK's road (use `signal`).
   */
  onCancel?(listener: (reason: unknown) => void): () => void;
  /** Sends the caller a notification related to this request (progress). */
  notify(notification: ServerNotification): Promise<void>;
  /** What a retry carries back to the child (its answers to the child's question), as the caller's revision reads it. */
  readonly answers: Record<string, unknown> | undefined;
  /** The caller: an OAuth client id or `api-token:<id>`; undefined on an open (loopback) hub. */
  readonly clientId: string | undefined;
  /** The access record of the HTTP request (see access-log.ts); undefined over stdio, or when the access log is off. */
  readonly access?: AccessRecord | undefined;
  /**
   * The servers this caller may reach through `/hub` (its credentials are limited to them:
   * an API token minted with `--servers`); undefined: every server. `mayReach` tells.
   */
  readonly servers: readonly string[] | undefined;
  /**
   * The least severe of the child's log messages the caller hears during its call, where
   * its revision keeps a level it set (`CallerWire.keepsLogLevel`); undefined: none.
   */
  readonly logLevel?: LoggingLevel | undefined;
  /**
   * Told the call's observation when observers listen, by a road whose writer counts the
   * answer it writes (the plain road), to set the event's `resultBytes` once written.
   */
  observed?(event: ToolCallEvent): void;
}

/** Whether the caller may reach `server` through `/hub`. */
export function mayReach(request: Pick<CallerRequest, 'servers'>, server: string): boolean {
  return request.servers === undefined || request.servers.includes(server);
}

/** The caller's request as the SDK's server hands it to a handler on `revision`, with what the HTTP request handed that server. */
export function callerRequestOf(revision: ServedRevision, context: ServerContext, exchange?: SdkExchange): CallerRequest {
  const { mcpReq } = context;
  const cancelled = exchange?.cancelled;
  return {
    meta: mcpReq._meta,
    // The SDK types the lifted envelope as an empty object; its keys are the reserved `_meta` names.
    envelope: mcpReq.envelope ?? {},
    signal: cancelled ? AbortSignal.any([mcpReq.signal, cancelled]) : mcpReq.signal,
    notify: (notification) => mcpReq.notify(notification),
    answers: revision.answersOf(mcpReq),
    clientId: context.http?.authInfo?.clientId,
    access: exchange?.access,
    servers: callerServers(context.http?.authInfo),
    logLevel: exchange?.logLevel?.get(),
  };
}
