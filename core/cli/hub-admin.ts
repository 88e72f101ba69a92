#!/usr/bin/env node
import { runCli, wantsHelp } from './run.js';

const HELP = `Usage: hub-admin [--help]

Administers clients and tokens: clients add|list|revoke, tokens mint|revoke.
`;

runCli('hub-admin', async () => {
  if (wantsHelp(process.argv.slice(2))) return void process.stdout.write(HELP);
  throw new Error('not available yet');
});
