#!/usr/bin/env node
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createMapRuntime } from './runtime.js';
import { createMapServer } from './server.js';
import { HUB_ERROR_CODES, HUB_VERSION, runCli, StartupError, wantsHelp, errorMessage } from '../../core/plugin/errors.js';

const HELP = `Usage: map-server [--http <port>] [--host <address>] [--help] [--version]

The map and routing tool server (eleven tools over OpenStreetMap data), speaking MCP
revisions 2026-07-28 and 2025-11-25. Serves stdio by default; --http <port> serves
Streamable HTTP at http://<host>:<port>/mcp instead (host default 127.0.0.1).

Environment (see plugins/map-tools/README.md):
  MAP_ALLOW_TOOLS, MAP_DENY_TOOLS   comma-separated tool names; "essential" = the six essential tools
  ALT_ROUTING_API_KEY               use the alternative routing service for route and isochrone
  MAP_OSM_FILE                      answer offline from a local .osm.pbf file
  MAP_NOMINATIM_URL, MAP_PHOTON_URL, MAP_OSRM_URL, MAP_VALHALLA_URL,
  MAP_OVERPASS_URLS, MAP_ALT_ROUTING_URL       service base URLs
  MAP_USER_AGENT, MAP_REQUEST_INTERVAL_MS, MAP_CACHE_TTL_MS,
  MAP_TIMEOUT_MS, MAP_OVERPASS_TIMEOUT_MS, MAP_OVERPASS_CONCURRENCY
`;

runCli('map-server', async () => {
  const argv = process.argv.slice(2);
  if (wantsHelp(argv)) return void process.stdout.write(HELP);
  if (argv.includes('--version')) return void process.stdout.write(`${HUB_VERSION}\n`);
  const port = optionValue(argv, '--http');
  const host = optionValue(argv, '--host') ?? '127.0.0.1';
  const runtime = createMapRuntime(process.env, (line) => process.stderr.write(`${line}\n`));
  const factory = () =>
    createMapServer({
      providers: runtime.providers,
      tools: runtime.tools,
      onInternalError: (tool, error) => process.stderr.write(`map-server: ${tool} failed: ${errorMessage(error)}\n`),
    });
  runtime.start((error) => process.stderr.write(`map-server: the map engines failed to start (retried on the next call): ${errorMessage(error)}\n`));

  if (port === undefined) {
    const handle = serveStdio(factory);
    const stop = () => void handle.close().finally(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    process.stderr.write(`map-server ${HUB_VERSION} on stdio (${runtime.tools.length} tools)\n`);
    return;
  }

  const number = Number(port);
  if (!Number.isInteger(number) || number < 0 || number > 65535) throw new StartupError(`--http expects a port number, got "${port}"`, { code: HUB_ERROR_CODES.USAGE });
  const handler = createMcpHandler(factory);
  const nodeHandler = toNodeHandler(handler);
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(host);
  const server = createServer((request, response) => {
    if (loopback && (!validateHost(request, response) || !validateOrigin(request, response))) return;
    if (new URL(request.url ?? '/', 'http://host').pathname !== '/mcp') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the MCP endpoint is /mcp\n');
      return;
    }
    void nodeHandler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(number, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  process.stderr.write(`map-server ${HUB_VERSION} listening on http://${urlHost}:${bound}/mcp (${runtime.tools.length} tools)\n`);
  const stop = () => {
    server.close();
    void handler.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});

function optionValue(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  if (index < 0) return undefined;
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new StartupError(`${name} needs a value`, { code: HUB_ERROR_CODES.USAGE });
  return value;
}
