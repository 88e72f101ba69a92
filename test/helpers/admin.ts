import type { AdminCommand } from '../../core/cli/admin-command.js';
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
