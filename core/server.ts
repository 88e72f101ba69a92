import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import pino from 'pino';
import { recordAccess } from './access-log.js';
import { HUB_ERROR_CODES, HubError, StartupError } from './errors.js';
import { lazyRequestLog } from './lazy-request-log.js';
import type { Hub } from './hub.js';
import { hub, onKernel } from './kernel.js';
import { guardConnections } from './limits/connections.js';
import { serverLimitOptions } from './limits/server-options.js';
import type { PluginHub } from './plugin-hub.js';
import { settingsFromEnvironment, type HubSettings } from './config/settings.js';
import { readableLogs } from './log-format.js';

/** After the drain (DRAIN_TIMEOUT_MS, see core/operator/drain.ts), what is still connected gets this long before it is closed. */
const CLOSE_GRACE_MS = 5_000;

export interface StartedHub {
  app: FastifyInstance;
  /** The hub as plugins and an embedding app see it. */
  hub: PluginHub;
  url: string;
  close(): Promise<void>;
}

/** Where the log is written: a file descriptor, a terminal or not (process.stdout by default). */
export interface LogDestination {
  fd: number;
  isTTY?: boolean;
}

/** What the log holds in memory for a sink that does not keep up; beyond it records are dropped, and counted. */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/**
 * Records are written once this much has gathered, or at the latest after `LOG_FLUSH_MS`:
 * a busy hub writes its log in a few large writes rather than one per record (each write
 * wakes a thread of the pool and the reader of the sink, which costs more than the record).
 */
const LOG_WRITE_BYTES = 32 * 1024;
const LOG_FLUSH_MS = 100;

/**
 * Logger options: pino, with credentials redacted wherever they could appear. On a
 * terminal (or with LOG_FORMAT=pretty) records are printed as readable lines
 * (`pino-pretty`, imported only then); otherwise one JSON record a line, for log
 * collectors. Either way records are written asynchronously (JSON records gathered for up
 * to `LOG_FLUSH_MS`), and flushed when the process exits: a slow sink never blocks the
 * event loop.
 */
export async function loggerOptions(env: NodeJS.ProcessEnv, destination: LogDestination = process.stdout) {
  const { logStyle } = settingsFromEnvironment(env);
  const readable = readableLogs(env, destination);
  const stream = readable
    ? (await import('pino-pretty')).default({ sync: false, destination: destination.fd, colorize: destination.isTTY, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' })
    : jsonLines(destination.fd);
  return {
    level: env.LOG_LEVEL || 'info',
    // What log collectors read without a parsing rule: `"level":"warn"` and an ISO 8601 time.
    ...(logStyle === 'collector' && !readable && { formatters: { level: (label: string) => ({ level: label }) }, timestamp: pino.stdTimeFunctions.isoTime }),
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
    stream,
  };
}

/**
 * The JSON records' sink: sonic-boom (pino's), given each record as bytes, which it gathers
 * in O(1) (given text, it measures the text gathered so far at every record). Says, once
 * the sink has caught up, how many records it could not take.
 */
function jsonLines(fd: number): { write(line: string): void } {
  const sink = pino.destination({ dest: fd, sync: false, contentMode: 'buffer', minLength: LOG_WRITE_BYTES, maxWrite: 2 * LOG_WRITE_BYTES, periodicFlush: LOG_FLUSH_MS, maxLength: LOG_BUFFER_BYTES });
  // sonic-boom's typings know only its text mode.
  const put = sink.write.bind(sink) as unknown as (bytes: Buffer) => boolean;
  let dropped = 0;
  sink.on('drop', () => {
    if (dropped === 0)
      sink.once('drain', () => {
        put(Buffer.from(`${JSON.stringify({ level: 40, time: Date.now(), msg: `the log sink was too slow: ${dropped} log records were dropped` })}\n`));
        dropped = 0;
      });
    dropped += 1;
  });
  return { write: (line) => void put(Buffer.from(line)) };
}

/**
 * Fastify's own records of each request ("incoming request", "request completed", a route
 * not found) at `debug`: the access record (access-log.ts) is the one `info` line a request
 * gets. Errors keep their levels.
 */
export class RequestRecordsAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else if (!this.isLogDisabled(request)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override routeNotFound(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug(`Route ${request.raw.method}:${request.raw.url} not found`);
  }
}

/**
 * Builds and starts the standalone HTTP hub: the same plugin, on a bare Fastify.
 * `closeKeptAliveGently`: see `HubPluginOptions` (the `hub` CLI sets it). `logTo`: where
 * the log goes (stdout by default; a test started in-process reads it from a file).
 */
export async function startHub(
  env: NodeJS.ProcessEnv = process.env,
  { closeKeptAliveGently = false, logTo = process.stdout }: { closeKeptAliveGently?: boolean; logTo?: LogDestination } = {},
): Promise<StartedHub> {
  const settings = settingsFromEnvironment(env);
  // return503OnClosing off: during the drain the hub's own routes answer (/readyz 503, MCP
  // endpoints a JSON-RPC error), and the rest keeps serving until the listener closes.
  const app = Fastify({
    logger: await loggerOptions(env, logTo),
    logController: new RequestRecordsAtDebug(),
    childLoggerFactory: lazyRequestLog,
    pluginTimeout: 0,
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    bodyLimit: 4 * 1024 * 1024,
    ...serverLimitOptions(settings),
  });
  guardConnections(app.server, settings);
  // At the root, so that requests no route takes get their access record too.
  recordAccess(app);
  let context: PluginHub | undefined;
  let kernel: Hub | undefined;
  // Fastify logs `Server listening at …` as the socket is bound, before the work the hub does
  // once it listens (core/listen-work.ts): that line says so, and the hub's own, after the
  // work, is the one an operator (or a script running hub-admin beside it) waits for.
  const addresses: string[] = [];
  const bound = (address: string) => {
    addresses.push(address);
    return `Server bound at ${address}; it answers once its start-up is done`;
  };
  try {
    await app.register(hub, { env: env as Record<string, string>, closeKeptAliveGently, setup: (created) => void (context = created), [onKernel]: (created) => void (kernel = created) });
    await app.listen({ host: settings.host, port: settings.port, listenTextResolver: bound }).catch((error: unknown) => {
      throw listenError(error as NodeJS.ErrnoException, settings);
    });
    await kernel?.listenWork.done;
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  for (const address of addresses) app.log.info(`Server listening at ${address}`);
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
