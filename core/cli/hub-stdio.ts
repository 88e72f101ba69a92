#!/usr/bin/env node
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { openDetachedHub } from '../detached.js';
import type { McpEra } from '../mcp/era.js';
import { HubEndpoint } from '../mcp/hub-endpoint.js';
import { StdioRevisionGate } from '../mcp/stdio-gate.js';
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
  const eras = hub.eras.values();
  if (eras.length === 0) throw new Error('no MCP revision plugin is enabled');
  const byClass = new Map(eras.map((era) => [era.era, era]));
  const endpoint = new HubEndpoint(hub);
  // The SDK serves either class of session; the gate lets through only what an enabled revision claims.
  serveStdio(({ era }) => endpoint.server(byClass.get(era) as McpEra), { transport: new StdioRevisionGate(new StdioServerTransport(), eras), legacy: 'serve' });
  const shutdown = () => void app.close().finally(() => process.exit(0));
  process.stdin.on('end', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
});
