#!/usr/bin/env node
import { startHub } from '../server.js';
import { HUB_VERSION } from '../version.js';
import { parseFlags, runCli } from './run.js';

const HELP = `Usage: hub [--help] [--version]

Starts the HTTP hub: /hub, /<name>/mcp, /health, /livez and /readyz. Every setting
comes from the environment. SIGHUP (or saving the config file) reloads the config.

Environment:
  HOST              address to listen on (default 127.0.0.1)
  PORT              port to listen on (default 3000)
  BASE_URL          public base URL (default http://HOST:PORT)
  HUB_CONFIG        config file (default ./mcp.json; without one, the built-in map server)
  DATA_PATH         snapshots, embedded store, keys (default ./data)
  LOG_LEVEL         pino log level (default info)
  LOG_FORMAT        pretty, json, or auto: pretty on a terminal (default auto)
  DRAIN_TIMEOUT_MS  at SIGTERM, how long calls in flight may finish (default 10000)
  CLIENT_CALLS_PER_MINUTE, CLIENT_MAX_CONCURRENT, CLIENT_MAX_STREAMS, MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, TRUSTED_PROXIES
                    limits per client and per process (README, section Security)
`;

runCli('hub', async () => {
  const { values } = parseFlags(process.argv.slice(2), { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } }, HELP);
  if (values.help) return void process.stdout.write(HELP);
  if (values.version) return void process.stdout.write(`${HUB_VERSION}\n`);
  const started = await startHub();
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    started.app.log.info({ signal }, 'shutting down');
    started.close().then(
      () => process.exit(0),
      (error: Error) => {
        started.app.log.error({ err: error.message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => void started.hub.reloadConfig('SIGHUP'));
});
