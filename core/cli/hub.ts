#!/usr/bin/env node
import { startHub } from '../server.js';
import { HUB_VERSION } from '../version.js';
import { runCli, wantsHelp } from './run.js';

const HELP = `Usage: hub [--help] [--version]

Starts the HTTP hub: /hub, /<name>/mcp and /health.

Environment:
  HOST              address to listen on (default 127.0.0.1)
  PORT              port to listen on (default 3000)
  BASE_URL          public base URL (default http://HOST:PORT)
  HUB_CONFIG        config file (default ./mcp.json; without one, built-in defaults)
  DATA_PATH         snapshots, embedded store, keys (default ./data)
  LOG_LEVEL         pino log level (default info)
`;

runCli('hub', async () => {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) return void process.stdout.write(HELP);
  if (argv.includes('--version')) return void process.stdout.write(`${HUB_VERSION}\n`);
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
});
