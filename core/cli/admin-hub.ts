import type { AdminInvocation } from './admin-args.js';
import { adminUsage, findCommand, unknownGroup } from './admin-args.js';
import type { AdminOutput } from './admin-command.js';
import { openDetachedHub } from '../detached.js';

/**
 * Runs a hub-admin command line against the hub built from the same config and
 * environment as the server (the same resolution of HUB_CONFIG, DATA_PATH and BASE_URL),
 * without listening, and closes it: what a command that needs more than the store, or a
 * third-party plugin's, takes. Resolves with the exit code.
 */
export async function runInHub(env: NodeJS.ProcessEnv, invocation: AdminInvocation, output: AdminOutput): Promise<number> {
  // The commands need the store and the plugins, not the servers: a broken entry is only noted.
  const { app, hub } = await openDetachedHub(env, false, { leftOut: (problem) => output.stderr(`hub-admin: note: left out a server: ${problem}\n`) });
  try {
    const commands = hub.adminCommands.values();
    if (invocation.help) {
      output.stdout(adminUsage(commands));
      return 0;
    }
    const found = findCommand(commands, invocation.group, invocation.args);
    if (!found) {
      output.stderr(unknownGroup(invocation.group, commands));
      return 2;
    }
    return await found.command.run(found.args, output);
  } finally {
    await app.close();
  }
}
