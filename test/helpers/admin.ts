import { findCommand } from '../../core/cli/admin-args.js';
import type { AdminCommand } from '../../core/cli/admin-command.js';
import { openDetachedHub } from '../../core/detached.js';
import type { CliResult } from './cli.js';

/**
 * Runs a hub-admin command in this process, as hub-admin would, with its output kept:
 * what a test asks of a command (not of hub-admin's process) without starting one.
 */
export async function runAdminCommand(command: AdminCommand | undefined, args: string[]): Promise<CliResult> {
  if (!command) throw new Error('no such admin command is registered');
  let stdout = '';
  let stderr = '';
  const code = await command.run(args, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
  return { code, stdout, stderr };
}

/**
 * `hub-admin <group> <args...>` beside a hub process, run in this process: the hub is built
 * from the process's environment (`env`: HUB_CONFIG, DATA_PATH) as hub-admin builds it (no
 * server started, no config watched, a broken entry only noted), once, at the first command,
 * and closed at teardown; each command line is found as hub-admin finds it. For tests whose
 * subject is what a command does; hub-admin's own process is admin-*.test.ts's and
 * tool-pinning/replicas.test.ts's.
 */
export function adminBeside(t: { teardown(fn: () => unknown): void }, env: Record<string, string>): (group: string, ...args: string[]) => Promise<CliResult> {
  let notes = '';
  let opened: ReturnType<typeof openDetachedHub> | undefined;
  return async (group, ...args) => {
    if (!opened) {
      opened = openDetachedHub(env, false, { leftOut: (problem) => void (notes += `hub-admin: note: left out a server: ${problem}\n`) });
      const closing = opened;
      t.teardown(async () => (await closing).app.close());
    }
    const { hub } = await opened;
    const found = findCommand(hub.adminCommands.values(), group, args);
    if (!found) throw new Error(`hub-admin has no command ${group}`);
    const result = await runAdminCommand(found.command, found.args);
    const stderr = notes + result.stderr;
    notes = '';
    return { ...result, stderr };
  };
}
