#!/usr/bin/env node
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { openDetachedHub } from '../detached.js';
import { createHubServer } from '../mcp/hub-server.js';
import { LegacyOnlyTransport } from '../mcp/legacy-only-stdio.js';
import { loggerOptions } from '../server.js';
import { runCli, wantsHelp } from './run.js';

const HELP = `Usage: hub-stdio [--help]

Serves the /hub meta-tools over stdin/stdout, from the same config (HUB_CONFIG) and
data (DATA_PATH) as the HTTP hub. No HTTP and no authentication: the local user is the
trust boundary. Logs go to stderr. Both MCP revisions are served.
`;

runCli('hub-stdio', async () => {
  if (wantsHelp(process.argv.slice(2))) return void process.stdout.write(HELP);
  // stdout carries the protocol, so the log goes to stderr.
  const { app, hub } = await openDetachedHub(process.env, { ...loggerOptions(process.env), stream: process.stderr });
  const modern = hub.eras.values().find((era) => era.era === 'modern');
  const legacy = hub.eras.values().find((era) => era.era === 'legacy');
  if (modern) {
    serveStdio(({ era: requested }) => createHubServer(hub, requested === 'legacy' && legacy ? legacy : modern), { legacy: legacy ? 'serve' : 'reject' });
  } else if (legacy) {
    serveStdio(() => createHubServer(hub, legacy), { transport: new LegacyOnlyTransport(new StdioServerTransport(), legacy.revision) });
  } else {
    throw new Error('no MCP revision plugin is enabled');
  }
  const shutdown = () => void app.close().finally(() => process.exit(0));
  process.stdin.on('end', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
});
