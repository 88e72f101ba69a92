import { Type, type Static } from 'typebox';
import { HUB_ERROR_CODES, HubError, StartupError } from '../errors.js';
import { LimitSettings, trustedProxies } from '../limits/settings.js';
import { absolute, DEFAULT_PATHS } from './setting-paths.js';

export const HubSettings = Type.Object({
  host: Type.String({ default: '127.0.0.1', description: 'HOST: the address to listen on.' }),
  port: Type.Integer({ minimum: 0, maximum: 65535, default: 3000, description: 'PORT: the port to listen on.' }),
  baseUrl: Type.String({ description: 'BASE_URL: the public base URL; default http://HOST:PORT.' }),
  dataPath: Type.String({ description: 'DATA_PATH: snapshots, the embedded store and keys; default ./data.' }),
  configFile: Type.String({ description: 'HUB_CONFIG: path of the config file; default ./mcp.json.' }),
  idleTimeoutMinutes: Type.Number({ minimum: 0, description: 'IDLE_TIMEOUT_MINUTES: an on-demand server sleeps after this long unused; 0 never; default 60.' }),
  callTimeoutMs: Type.Integer({ minimum: 1, description: 'TOOL_CALL_TIMEOUT_MS: a tool call fails after this long without progress; default 300000 (5 minutes).' }),
  startTimeoutMs: Type.Integer({
    minimum: 1,
    description:
      'START_TIMEOUT_MS: how long a server may take to start and answer its MCP handshake (retries included) before it is reported down, for every server without its own startTimeoutMs, and for hub check --connect; default 120000 (2 minutes).',
  }),
  operatorSessionMinutes: Type.Integer({ minimum: 1, description: "OPERATOR_SESSION_MINUTES: how long an operator stays logged in to the hub's pages (status, upstream logins); default 720 (12 h)." }),
  operatorSessionsOnPasswordChange: Type.Union([Type.Literal('end'), Type.Literal('keep')], {
    description:
      "OPERATOR_SESSIONS_ON_PASSWORD_CHANGE: what a start with another operator password than the last start's does to the operator sessions: end (everyone logs in again with the new password) or keep; default end.",
  }),
  drainTimeoutMs: Type.Integer({
    minimum: 0,
    description:
      "DRAIN_TIMEOUT_MS: at shutdown, how long calls in flight may finish before they are cut; keep it at least 3 s under the stop timeout (the grace period before SIGKILL, less any preStop pause), which the cut calls' answers and the rest of the shutdown need, and raise both together; default 7000 (7 + 3 s fit the 10 s podman, docker and Kubernetes give by default).",
  }),
  logFormat: Type.Union([Type.Literal('auto'), Type.Literal('json'), Type.Literal('pretty')], {
    description: 'LOG_FORMAT: pretty (readable lines), json (one JSON record a line), or auto (pretty on a terminal, JSON otherwise); default auto.',
  }),
  logStyle: Type.Union([Type.Literal('pino'), Type.Literal('collector')], {
    description:
      'LOG_STYLE: the fields of JSON records: pino (level as a number, time in epoch milliseconds) or collector (level as a word, time as ISO 8601, as Elastic, Loki and Cloud Logging expect); default pino.',
  }),
  // Limits per client and per process (core/limits/settings.ts).
  ...LimitSettings.properties,
});
export type HubSettings = Static<typeof HubSettings>;

/**
 * One environment variable of the operator interface: its name, the value when it is
 * unset or empty (which may depend on settings read before it), and the parser of a given
 * value. A parser throws an Error saying what was expected; the caller names the variable.
 */
interface Setting<K extends keyof HubSettings> {
  key: K;
  env: string;
  fallback: (read: Partial<HubSettings>, cwd: string) => HubSettings[K];
  parse: (raw: string, cwd: string) => HubSettings[K];
}

function setting<K extends keyof HubSettings>(key: K, env: string, fallback: Setting<K>['fallback'], parse: Setting<K>['parse']): Setting<K> {
  return { key, env, fallback, parse };
}

/*
 * Every setting, in the order they are read. A new setting is one more line here (and
 * one more property in HubSettings); validation and the error naming the variable come
 * with it.
 */
const SETTINGS = [
  setting('host', 'HOST', () => '127.0.0.1', hostName),
  setting('port', 'PORT', () => 3000, integer(0, 65535)),
  setting('baseUrl', 'BASE_URL', (read) => `http://${urlHost(read.host ?? '127.0.0.1')}:${read.port ?? 3000}`, httpUrl),
  setting('dataPath', 'DATA_PATH', (_read, cwd) => absolute(DEFAULT_PATHS.DATA_PATH, cwd), absolute),
  setting('configFile', 'HUB_CONFIG', (_read, cwd) => absolute(DEFAULT_PATHS.HUB_CONFIG, cwd), absolute),
  setting('idleTimeoutMinutes', 'IDLE_TIMEOUT_MINUTES', () => 60, number(0)),
  setting('callTimeoutMs', 'TOOL_CALL_TIMEOUT_MS', () => 300_000, integer(1)),
  setting('startTimeoutMs', 'START_TIMEOUT_MS', () => 120_000, integer(1)),
  setting('operatorSessionMinutes', 'OPERATOR_SESSION_MINUTES', () => 720, integer(1)),
  setting('operatorSessionsOnPasswordChange', 'OPERATOR_SESSIONS_ON_PASSWORD_CHANGE', () => 'end' as const, oneOf(['end', 'keep'] as const)),
  setting('drainTimeoutMs', 'DRAIN_TIMEOUT_MS', () => 7_000, integer(0)),
  setting('logFormat', 'LOG_FORMAT', () => 'auto' as const, oneOf(['auto', 'json', 'pretty'] as const)),
  setting('logStyle', 'LOG_STYLE', () => 'pino' as const, oneOf(['pino', 'collector'] as const)),
  // Limits per client and per process (core/limits/settings.ts).
  setting('clientCallsPerMinute', 'CLIENT_CALLS_PER_MINUTE', () => 1200, integer(1)),
  setting('clientMaxConcurrent', 'CLIENT_MAX_CONCURRENT', () => 32, integer(1)),
  setting('clientMaxStreams', 'CLIENT_MAX_STREAMS', () => 16, integer(1)),
  setting('maxConnections', 'MAX_CONNECTIONS', () => 1024, integer(1)),
  setting('maxConnectionsPerAddress', 'MAX_CONNECTIONS_PER_ADDRESS', () => 128, integer(1)),
  setting('requestTimeoutMs', 'REQUEST_TIMEOUT_MS', () => 30_000, integer(1)),
  setting('headersTimeoutMs', 'HEADERS_TIMEOUT_MS', (read) => Math.min(10_000, read.requestTimeoutMs ?? 30_000), integer(1)),
  setting('keepAliveTimeoutMs', 'KEEP_ALIVE_TIMEOUT_MS', () => 72_000, integer(1)),
  setting('trustedProxies', 'TRUSTED_PROXIES', () => [], trustedProxies),
] as const;

/** The environment variable each setting is read from, for messages. */
export const SETTING_VARIABLES: Readonly<Record<keyof HubSettings, string>> = Object.fromEntries(SETTINGS.map(({ key, env }) => [key, env])) as Record<keyof HubSettings, string>;

/**
 * The operator interface's environment variables, with their documented defaults. A
 * value that does not parse stops start-up with one line naming the variable, what was
 * expected and what was given: a typo never silently becomes a default.
 */
export function settingsFromEnvironment(env: NodeJS.ProcessEnv, cwd = process.cwd()): HubSettings {
  const read: Partial<Record<keyof HubSettings, unknown>> = {};
  for (const { key, env: name, fallback, parse } of SETTINGS) {
    const raw = env[name]?.trim();
    try {
      read[key] = raw === undefined || raw === '' ? fallback(read as Partial<HubSettings>, cwd) : parse(raw, cwd);
    } catch (error) {
      throw new StartupError(`${name}: expected ${(error as Error).message} (got ${JSON.stringify(raw)})`, { code: HUB_ERROR_CODES.SETTING_INVALID, cause: error });
    }
  }
  return read as HubSettings;
}

/** A raw value that does not parse; the message says what was expected, for the start-up line. */
function invalid(expected: string): HubError {
  return new HubError(HUB_ERROR_CODES.SETTING_INVALID, expected);
}

function integer(minimum: number, maximum = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < minimum || value > maximum) {
      throw invalid(maximum === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${minimum}` : `a whole number from ${minimum} to ${maximum}`);
    }
    return value;
  };
}

function number(minimum: number) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < minimum) throw invalid(`a number of at least ${minimum}`);
    return value;
  };
}

function oneOf<const T extends string>(values: readonly T[]) {
  return (raw: string): T => {
    const value = values.find((candidate) => candidate === raw.toLowerCase());
    if (value === undefined) throw invalid(`one of ${values.join(', ')}`);
    return value;
  };
}

function hostName(raw: string): string {
  if (/[\s/?#@]/.test(raw)) throw invalid('a host name or IP address');
  return raw;
}

function httpUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('an absolute http(s) URL such as https://hub.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('an absolute http(s) URL such as https://hub.example.com');
  if (url.search || url.hash) throw invalid('a URL without query or fragment');
  return raw.replace(/\/+$/, '');
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
