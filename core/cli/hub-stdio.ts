#!/usr/bin/env node
import { runCli, wantsHelp } from './run.js';

const HELP = `Usage: hub-stdio [--help]

Serves the /hub meta-tools over stdin/stdout from the same config.
`;

runCli('hub-stdio', async () => {
  if (wantsHelp(process.argv.slice(2))) return void process.stdout.write(HELP);
  throw new Error('not available yet');
});
