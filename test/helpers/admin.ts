import { findCommand } from '../../core/cli/admin-args.js';
import type { AdminCommand } from '../../core/cli/admin-command.js';
import { runAdmin } from '../../core/cli/admin-main.js';
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
 * `hub-admin <args...>` with the environment `env` (nothing of the test's own), run in this
 * process as the bin runs it: the same fast path on the store alone, the same hub built
 * otherwise, the same refusals (a rejection is what runCli prints before it exits).
 * For tests whose subject is what hub-admin does, not its process.
 */
export async function runHubAdmin(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(args, env, { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) });
  return { code, stdout, stderr };
}

/**
 * `hub-admin <group> <args...>` beside a hub process, run in this process: each command
 * line builds the hub from `env` (the hub process's HUB_CONFIG, DATA_PATH) as hub-admin
 * builds it (no server started, no config watched, a broken entry only noted), is found as
 * hub-admin finds it, and closes the hub, so it reads the config and store as they are then.
 * For tests whose subject is what a command does; hub-admin's own process is the subject
 * of admin-*.test.ts and tool-pinning/replicas.test.ts.
 */
export function adminBeside(env: Record<string, string>): (group: string, ...args: string[]) => Promise<CliResult> {
  return async (group, ...args) => {
    let notes = '';
    const { app, hub } = await openDetachedHub(env, false, { leftOut: (problem) => void (notes += `hub-admin: note: left out a server: ${problem}\n`) });
    try {
      const found = findCommand(hub.adminCommands.values(), group, args);
      if (!found) throw new Error(`hub-admin has no command ${group}`);
      const result = await runAdminCommand(found.command, found.args);
      return { ...result, stderr: notes + result.stderr };
    } finally {
      await app.close();
    }
  };
}
