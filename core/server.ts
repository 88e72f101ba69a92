import Fastify, { type FastifyInstance } from 'fastify';
import pretty from 'pino-pretty';
import { HUB_ERROR_CODES, HubError, StartupError } from './errors.js';
import { hub } from './kernel.js';
import { guardConnections } from './limits/connections.js';
import { serverLimitOptions } from './limits/server-options.js';
import type { PluginHub } from './plugin-hub.js';
import { settingsFromEnvironment, type HubSettings } from './settings.js';

/** After the drain (DRAIN_TIMEOUT_MS, see core/drain.ts), what is still connected gets this long before it is closed. */
const CLOSE_GRACE_MS = 5_000;

export interface StartedHub {
  app: FastifyInstance;
  /** The hub as plugins and an embedding app see it. */
  hub: PluginHub;
  url: string;
  close(): Promise<void>;
}

/**
 * Logger options: pino, with credentials redacted wherever they could appear. On a
 * terminal (or with LOG_FORMAT=pretty) records are printed as readable lines; otherwise
 * one JSON record a line, for log collectors.
 */
export function loggerOptions(env: NodeJS.ProcessEnv, destination: NodeJS.WriteStream = process.stdout) {
  const { logFormat } = settingsFromEnvironment(env);
  const readable = logFormat === 'pretty' || (logFormat === 'auto' && destination.isTTY === true);
  return {
    level: env.LOG_LEVEL || 'info',
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.password', '*.client_secret', '*.access_token', '*.refresh_token'],
      censor: '[redacted]',
    },
    serializers: {
      // Query strings can carry authorization codes and states: log the path only.
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: request.url.replace(/\?.*$/, request.url.includes('?') ? '?…' : ''),
        remoteAddress: request.ip,
      }),
    },
    stream: readable ? pretty({ sync: true, destination, colorize: destination.isTTY === true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' }) : destination,
  };
}

/** Builds and starts the standalone HTTP hub: the same plugin, on a bare Fastify. */
export async function startHub(env: NodeJS.ProcessEnv = process.env): Promise<StartedHub> {
  const settings = settingsFromEnvironment(env);
  // return503OnClosing off: during the drain the hub's own routes answer (/readyz 503, MCP
  // endpoints a JSON-RPC error), and the rest keeps serving until the listener closes.
  const app = Fastify({ logger: loggerOptions(env), pluginTimeout: 0, forceCloseConnections: 'idle', return503OnClosing: false, bodyLimit: 4 * 1024 * 1024, ...serverLimitOptions(settings) });
  guardConnections(app.server, settings);
  let context: PluginHub | undefined;
  try {
    await app.register(hub, { env: env as Record<string, string>, setup: (created) => void (context = created) });
    await app.listen({ host: settings.host, port: settings.port }).catch((error: NodeJS.ErrnoException) => {
      throw listenError(error, settings);
    });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  if (!context) throw new HubError(HUB_ERROR_CODES.INTERNAL, 'the hub plugin did not call setup');
  return {
    app,
    hub: context,
    url: `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${port}`,
    close: () => closeWithin(app, settings.drainTimeoutMs + CLOSE_GRACE_MS),
  };
}

/** What an operator can do about a failed listen: the variables to change. */
function listenError(error: NodeJS.ErrnoException, settings: HubSettings): Error {
  const where = `${settings.host}:${settings.port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new StartupError(`cannot listen on ${where}: the port is in use (another hub?); set PORT to a free port`, { code: HUB_ERROR_CODES.LISTEN, cause: error });
    case 'EACCES':
      return new StartupError(`cannot listen on ${where}: permission denied (ports below 1024 need privileges); set PORT to 1024 or above`, { code: HUB_ERROR_CODES.LISTEN, cause: error });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartupError(`cannot listen on ${where}: no such local address; set HOST to an address of this machine (127.0.0.1, 0.0.0.0, ::)`, { code: HUB_ERROR_CODES.LISTEN, cause: error });
    default:
      return error;
  }
}

/** Closes the app; requests still running after `graceMs` are cut. */
export async function closeWithin(app: FastifyInstance, graceMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  timer.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}
