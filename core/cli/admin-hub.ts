import type { AdminInvocation } from './admin-args.js';
import { adminUsage, findCommand, unknownGroup } from './admin-args.js';
import { processOutput } from './admin-command.js';
import { openDetachedHub } from '../detached.js';

/**
 * Runs a hub-admin command line against the hub built from the same config and
 * environment as the server (the same resolution of HUB_CONFIG, DATA_PATH and BASE_URL),
 * without listening, and closes it: what a command that needs more than the store, or a
 * third-party plugin's, takes.
 */
export async function runInHub(env: NodeJS.ProcessEnv, invocation: AdminInvocation): Promise<void> {
  // The commands need the store and the plugins, not the servers: a broken entry is only noted.
  const { app, hub } = await openDetachedHub(env, false, { leftOut: (problem) => process.stderr.write(`hub-admin: note: left out a server: ${problem}\n`) });
  try {
    const commands = hub.adminCommands.values();
    if (invocation.help) return void process.stdout.write(adminUsage(commands));
    const found = findCommand(commands, invocation.group, invocation.args);
    if (!found) {
      process.stderr.write(unknownGroup(invocation.group, commands));
      process.exitCode = 2;
      return;
    }
    process.exitCode = await found.command.run(found.args, processOutput);
  } finally {
    await app.close();
  }
}
