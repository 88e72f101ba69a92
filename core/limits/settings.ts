import ipaddr from 'ipaddr.js';
import { Type, type Static } from 'typebox';
import { StartupError } from '../errors.js';

/**
 * The limits an operator sets in the environment: per client (an OAuth client or an API
 * token) and per process. Defaults that one person's clients never reach and one abusive
 * client always does.
 */
export const LimitSettings = Type.Object({
  clientCallsPerMinute: Type.Integer({ minimum: 1, description: 'CLIENT_CALLS_PER_MINUTE: MCP requests per client per minute (sliding); over it HTTP 429 with Retry-After; default 1200.' }),
  clientMaxConcurrent: Type.Integer({ minimum: 1, description: 'CLIENT_MAX_CONCURRENT: MCP requests of one client in flight at once; default 32.' }),
  clientMaxStreams: Type.Integer({ minimum: 1, description: 'CLIENT_MAX_STREAMS: open subscriptions/listen streams per client; default 16.' }),
  maxConnections: Type.Integer({ minimum: 1, description: 'MAX_CONNECTIONS: open connections to the hub; further ones are closed at once; default 1024.' }),
  requestTimeoutMs: Type.Integer({ minimum: 1, description: 'REQUEST_TIMEOUT_MS: time allowed to send a whole request, headers and body; default 30000.' }),
  headersTimeoutMs: Type.Integer({ minimum: 1, description: 'HEADERS_TIMEOUT_MS: time allowed to send the headers; at most REQUEST_TIMEOUT_MS; default 10000.' }),
  keepAliveTimeoutMs: Type.Integer({ minimum: 1, description: 'KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection is closed after this; default 72000.' }),
  trustedProxies: Type.Array(Type.String(), {
    description: 'TRUSTED_PROXIES: comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal) whose X-Forwarded-For is believed; default none.',
  }),
});
export type LimitSettings = Static<typeof LimitSettings>;

/** Names proxy-addr (Fastify's trustProxy) accepts besides addresses and ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** The limits from the environment; a malformed value stops the start, naming its variable. */
export function limitSettingsFromEnvironment(env: NodeJS.ProcessEnv): LimitSettings {
  const requestTimeoutMs = positiveInteger(env, 'REQUEST_TIMEOUT_MS', 30_000);
  return {
    clientCallsPerMinute: positiveInteger(env, 'CLIENT_CALLS_PER_MINUTE', 1200),
    clientMaxConcurrent: positiveInteger(env, 'CLIENT_MAX_CONCURRENT', 32),
    clientMaxStreams: positiveInteger(env, 'CLIENT_MAX_STREAMS', 16),
    maxConnections: positiveInteger(env, 'MAX_CONNECTIONS', 1024),
    requestTimeoutMs,
    headersTimeoutMs: Math.min(positiveInteger(env, 'HEADERS_TIMEOUT_MS', 10_000), requestTimeoutMs),
    keepAliveTimeoutMs: positiveInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000),
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
  };
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new StartupError(`${name} must be a whole number of at least 1, and is "${text}"`);
  return value;
}

function trustedProxies(text: string | undefined): string[] {
  const entries = (text ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!PROXY_RANGE_NAMES.has(entry) && !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry)) {
      throw new StartupError(`TRUSTED_PROXIES: "${entry}" is not an address, a CIDR range, or one of ${[...PROXY_RANGE_NAMES].join(', ')}`);
    }
  }
  return entries;
}
