import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { AccessRecord } from '../access-log.js';

/**
 * What one HTTP request on the SDK's road hands the per-request server the SDK builds for
 * it, passed explicitly from the route to the endpoint's server: the request's access
 * record, a cancellation that arrives apart from the request, and what the server learnt
 * that changes the HTTP answer.
 */
export interface SdkExchange {
  readonly access: AccessRecord | undefined;
  /**
   * Aborted when the caller cancels the request with a message of its own (a revision whose
   * cancellation arrives apart from its request, `CallerWire.cancelledRequest`).
   */
  readonly cancelled: AbortSignal | undefined;
  /**
   * Set when the answer is a child's method-not-found relayed in band, which a revision may
   * answer with an HTTP status of its own (`methodNotFoundStatus`, see `answeredAsChild`).
   */
  methodNotFound: boolean;
  /** The caller's log level on the endpoint, where the revision keeps one (`CallerWire.keepsLogLevel`): read and set. */
  readonly logLevel: CallerLogLevel | undefined;
}

/** One caller's entry in an endpoint's kept log levels. */
export interface CallerLogLevel {
  get(): LoggingLevel | undefined;
  set(level: LoggingLevel): void;
}

export function sdkExchange(access: AccessRecord | undefined, cancelled?: AbortSignal, logLevel?: CallerLogLevel): SdkExchange {
  return { access, cancelled, methodNotFound: false, logLevel };
}
