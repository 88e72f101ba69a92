import ipaddr from 'ipaddr.js';
import { Type, type Static } from 'typebox';
import { HUB_ERROR_CODES, HubError } from '../errors.js';

/**
 * The limits an operator sets in the environment (read and checked with the other
 * settings, core/config/settings.ts): per client (an OAuth client or an API token) and per
 * process. Defaults that one person's clients never reach and one abusive client always
 * does.
 */
export const LimitSettings = Type.Object({
  clientCallsPerMinute: Type.Integer({ minimum: 1, description: 'CLIENT_CALLS_PER_MINUTE: MCP requests per client per minute (sliding); over it HTTP 429 with Retry-After; default 1200.' }),
  clientMaxConcurrent: Type.Integer({ minimum: 1, description: 'CLIENT_MAX_CONCURRENT: MCP requests of one client in flight at once; default 32.' }),
  clientMaxStreams: Type.Integer({ minimum: 1, description: 'CLIENT_MAX_STREAMS: open long-lived notification streams per client; default 16.' }),
  maxConnections: Type.Integer({
    minimum: 1,
    description:
      'MAX_CONNECTIONS: open connections to the hub; when all are held, a new one replaces one that has sent no request headers (or has been idle beyond HEADERS_TIMEOUT_MS), else it is closed at once; default 1024.',
  }),
  maxConnectionsPerAddress: Type.Integer({
    minimum: 1,
    description: 'MAX_CONNECTIONS_PER_ADDRESS: open connections from one client address (an IPv6 /64), TRUSTED_PROXIES exempt; further ones are closed at once; default 128.',
  }),
  requestTimeoutMs: Type.Integer({ minimum: 1, description: 'REQUEST_TIMEOUT_MS: time allowed to send a whole request, headers and body; default 30000.' }),
  headersTimeoutMs: Type.Integer({ minimum: 1, description: 'HEADERS_TIMEOUT_MS: time allowed to send the headers; at most REQUEST_TIMEOUT_MS; default 10000.' }),
  keepAliveTimeoutMs: Type.Integer({ minimum: 1, description: 'KEEP_ALIVE_TIMEOUT_MS: an idle kept-alive connection is closed after this; default 72000.' }),
  trustedProxies: Type.Array(Type.String(), {
    description: 'TRUSTED_PROXIES: comma-separated addresses or CIDR ranges (or loopback, linklocal, uniquelocal) whose X-Forwarded-For is believed; default none.',
  }),
});
export type LimitSettings = Static<typeof LimitSettings>;

/** Names proxy-addr (Fastify's trustProxy) accepts besides addresses and ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUSTED_PROXIES: comma-separated addresses, CIDR ranges or proxy-addr's range names; a
 * wrong entry throws, its message saying what was expected.
 */
export function trustedProxies(raw: string): string[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const wrong = entries.find((entry) => !PROXY_RANGE_NAMES.includes(entry) && !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry));
  if (wrong !== undefined) throw new HubError(HUB_ERROR_CODES.SETTING_INVALID, `addresses or CIDR ranges, or ${PROXY_RANGE_NAMES.join(', ')}, separated by commas ("${wrong}" is none of them)`);
  return entries;
}
