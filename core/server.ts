import Fastify, { type FastifyInstance } from 'fastify';
import { hub } from './kernel.js';
import { capConnections, serverLimitOptions } from './limits/server-options.js';
import { settingsFromEnvironment } from './settings.js';

/** How long shutdown waits for in-flight requests before cutting them. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface StartedHub {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Logger options: pino, with credentials redacted wherever they could appear. */
export function loggerOptions(env: NodeJS.ProcessEnv) {
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
  };
}

/** Builds and starts the standalone HTTP hub: the same plugin, on a bare Fastify. */
export async function startHub(env: NodeJS.ProcessEnv = process.env): Promise<StartedHub> {
  const settings = settingsFromEnvironment(env);
  const app = Fastify({ logger: loggerOptions(env), forceCloseConnections: 'idle', bodyLimit: 4 * 1024 * 1024, ...serverLimitOptions(settings) });
  capConnections(app.server, settings);
  try {
    await app.register(hub, { env: env as Record<string, string> });
    await app.listen({ host: settings.host, port: settings.port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  return {
    app,
    url: `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${port}`,
    close: () => closeWithin(app, SHUTDOWN_GRACE_MS),
  };
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
