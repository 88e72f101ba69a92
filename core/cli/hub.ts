#!/usr/bin/env node
import { HUB_VERSION } from '../version.js';
import { parseFlags } from './flags.js';
import { collectAllGarbage, IdleCollection } from './idle-collection.js';
import { logProcessWarnings } from './process-warnings.js';
import { runCli } from './run.js';
import { logUnhandledRejections } from './unhandled-rejections.js';
import { errorMessage } from '../errors.js';

const HELP = `Usage: hub [--help] [--version]
       hub check [--json] [--connect]     (also: hub --check)

Starts the HTTP hub: /hub, /<name>/mcp, /health, /livez and /readyz. Every setting
comes from the environment. SIGHUP (or saving the config file) reloads the config.

hub check reads the config as the hub would and checks every server without serving:
commands on PATH, docker images present, URLs that parse; --connect also starts or
connects to each server until it answers the MCP handshake. Exit code 0 when all is
well, 1 when a problem was found, 2 for a wrong command line. --json prints the report
as one JSON document.

Environment:
  HOST              address to listen on (default 127.0.0.1)
  PORT              port to listen on (default 3000)
  BASE_URL          public base URL (default http://HOST:PORT)
  HUB_CONFIG        config file (default ./mcp.json; without one, the built-in map server)
  DATA_PATH         snapshots, embedded store, keys (default ./data)
  LOG_LEVEL         pino log level (default info)
  LOG_FORMAT        pretty, json, or auto: pretty on a terminal (default auto)
  OPERATOR_SESSION_MINUTES  how long an operator stays logged in to the pages (default 720)
  DRAIN_TIMEOUT_MS  at SIGTERM, how long calls in flight may finish (default 7000)
  CLIENT_CALLS_PER_MINUTE, CLIENT_MAX_CONCURRENT, CLIENT_MAX_STREAMS, MAX_CONNECTIONS,
  MAX_CONNECTIONS_PER_ADDRESS, REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS, TRUSTED_PROXIES
                    limits per client and per process (docs/security/README.md)
`;

const warningsTo = logProcessWarnings();
const rejectionsTo = logUnhandledRejections();

// The hub and the checker are imported once the command line asks for them: `--help` and
// `--version` load neither.

runCli('hub', async () => {
  const argv = process.argv.slice(2);
  if (argv[0] === 'check' || argv[0] === '--check') {
    const { values } = parseFlags(argv.slice(1), { json: { type: 'boolean' }, connect: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, HELP);
    if (values.help) return void process.stdout.write(HELP);
    const { checkConfig, formatReport } = await import('./check.js');
    const report = await checkConfig(process.env, values.connect === true);
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    process.exitCode = report.ok ? 0 : 1;
    return;
  }
  const { values } = parseFlags(argv, { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } }, HELP);
  if (values.help) return void process.stdout.write(HELP);
  if (values.version) return void process.stdout.write(`${HUB_VERSION}\n`);
  // A deploy's clients meet no reset at SIGTERM.
  const { startHub } = await import('../server.js');
  const started = await startHub(process.env, { closeKeptAliveGently: true });
  warningsTo(started.app.log);
  rejectionsTo(started.app.log, () => started.hub.observe.unhandledRejection.publish({}));
  // What start-up left is given back once the hub goes quiet.
  const idle = new IdleCollection(collectAllGarbage, started.app.log);
  idle.start(started.app.server);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    idle.stop();
    started.app.log.info({ signal }, 'shutting down');
    // The last record, so that a collector sees why the hub went away and whether it ended cleanly.
    const stopped = (level: 'info' | 'error', fields: object): void =>
      started.app.log[level]({ signal, reason: `received ${signal}`, uptimeSeconds: Math.round(process.uptime()), ...fields }, 'hub stopped');
    started.close().then(
      () => {
        stopped('info', {});
        process.exit(0);
      },
      (error: unknown) => {
        const message = errorMessage(error);
        started.app.log.error({ err: message }, 'shutdown failed');
        stopped('error', { err: message });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => void started.hub.reloadConfig('SIGHUP'));
});
