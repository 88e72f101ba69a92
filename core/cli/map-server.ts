#!/usr/bin/env node
import { runCli, wantsHelp } from './run.js';

const HELP = `Usage: map-server [--help]

Runs the map and routing tools as a standalone MCP server (stdio, or --http <port>).
`;

runCli('map-server', async () => {
  if (wantsHelp(process.argv.slice(2))) return void process.stdout.write(HELP);
  throw new Error('not available yet');
});
