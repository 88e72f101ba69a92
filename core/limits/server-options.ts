import type { ServerOptions } from 'node:http';
import type { LimitSettings } from './settings.js';

/**
 * The standalone server's protection against slow and numerous clients: a request must
 * arrive whole within REQUEST_TIMEOUT_MS (its headers within HEADERS_TIMEOUT_MS), an idle
 * kept-alive connection is closed after KEEP_ALIVE_TIMEOUT_MS, and X-Forwarded-For is
 * believed from TRUSTED_PROXIES only. Once a request is in, its answer may take as long
 * as it needs (tool calls, subscription streams); who holds the connections is
 * `guardConnections`'. An app that embeds the hub sets these on its own server.
 */
export function serverLimitOptions(limits: LimitSettings): { requestTimeout: number; keepAliveTimeout: number; trustProxy: string[] | false; http: ServerOptions } {
  const headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    trustProxy: limits.trustedProxies.length > 0 ? limits.trustedProxies : false,
    http: {
      headersTimeout,
      requestTimeout: limits.requestTimeoutMs,
      // Node looks for expired requests at this interval (30 s unless told), so a short timeout needs a short look.
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
  };
}
