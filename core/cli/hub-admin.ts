#!/usr/bin/env node
import { openDetachedHub } from '../detached.js';
import { runCli, wantsHelp } from './run.js';

/**
 * A generic dispatcher over the admin commands that plugins register: it builds the hub
 * from the same config and environment as the server, without listening, runs one
 * command against it (and so against the same store) and closes it.
 */
runCli('hub-admin', async () => {
  const [group, ...args] = process.argv.slice(2);
  const { app, hub } = await openDetachedHub(process.env);
  try {
    const commands = hub.adminCommands;
    const command = group === undefined ? undefined : commands.get(group);
    if (!command || wantsHelp([group ?? '--help'])) {
      const lines = commands.values().map((entry) => `  ${entry.name.padEnd(10)}${entry.summary}\n      hub-admin ${entry.usage}`);
      process.stdout.write(`Usage: hub-admin <group> <action> [options]\n\n${lines.join('\n') || '  (no plugin registers admin commands)'}\n`);
      if (group !== undefined && !wantsHelp([group])) process.exitCode = 2;
      return;
    }
    process.exitCode = await command.run(args);
  } finally {
    await app.close();
  }
});
