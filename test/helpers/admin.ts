import type { AdminCommand } from '../../core/cli/admin-command.js';
import { runAdmin } from '../../core/cli/admin-main.js';
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
 * `hub-admin <args...>` beside a running hub, run in this process (runHubAdmin) with the
 * hub's environment `env` (its HUB_CONFIG, DATA_PATH): each command line reads the config
 * and store as they are then. For tests whose subject is what a command does; hub-admin's
 * own process is the subject of admin-*.test.ts and tool-pinning/replicas.test.ts.
 */
export function adminBeside(env: Record<string, string>): (...args: string[]) => Promise<CliResult> {
  return (...args) => runHubAdmin(env, ...args);
}
