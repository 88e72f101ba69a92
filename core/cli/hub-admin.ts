#!/usr/bin/env node
import { runAdmin } from './admin-main.js';
import { processOutput } from './admin-command.js';
import { runCli } from './run.js';

// hub-admin's work is runAdmin's (admin-main.ts), which tests run in their own process;
// the process adds its words, environment and stdio, and runCli its exit and error lines.
runCli('hub-admin', async () => {
  process.exitCode = await runAdmin(process.argv.slice(2), process.env, processOutput);
});
