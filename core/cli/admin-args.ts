import type { AdminCommandSummary } from './admin-command.js';
import { wantsHelp } from './run.js';

// hub-admin's command line, apart from everything it runs: what the words ask for, which
// command they name and the usage, with nothing of the hub loaded (and tested as a unit).

/** What a `hub-admin` command line asks for. */
export type AdminInvocation = { help: true } | { help: false; group: string; args: string[] };

export function parseAdminArgs(argv: readonly string[]): AdminInvocation {
  const [group, ...args] = argv;
  return group === undefined || wantsHelp([group]) ? { help: true } : { help: false, group, args };
}

/**
 * The command the words name and the words it is given. A command named by two words
 * (`tools search`) is one action of a group another plugin may own: it goes first.
 */
export function findCommand<C extends AdminCommandSummary>(commands: Iterable<C>, group: string, args: readonly string[]): { command: C; args: string[]; action: boolean } | undefined {
  const byName = new Map([...commands].map((command) => [command.name, command]));
  const action = args[0] === undefined ? undefined : byName.get(`${group} ${args[0]}`);
  if (action) return { command: action, args: args.slice(1), action: true };
  const command = byName.get(group);
  return command && { command, args: [...args], action: false };
}

/** Whether the command's words ask for an action that needs only the store. */
export function isStoreOnly(command: AdminCommandSummary, args: readonly string[]): boolean {
  return args[0] !== undefined && (command.storeOnly?.actions.includes(args[0]) ?? false);
}

export function adminUsage(commands: Iterable<AdminCommandSummary>): string {
  const lines = [...commands].map((entry) => `  ${entry.name.padEnd(10)}${entry.summary}\n      hub-admin ${entry.usage}`);
  return `Usage: hub-admin <group> <action> [options]\n\n${lines.join('\n') || '  (no plugin registers admin commands)'}\n\n${RESOLUTION}`;
}

export function unknownGroup(group: string, commands: Iterable<AdminCommandSummary>): string {
  return `hub-admin: unknown command group "${group}"\n\n${adminUsage(commands)}`;
}

const RESOLUTION = `hub-admin reads HUB_CONFIG, DATA_PATH, MONGODB_URL, BASE_URL, HOST and PORT as the hub
does (relative paths from the current folder): run it where the hub runs, with the same
environment. It works on an existing store only. Tokens are minted for BASE_URL when it
(or HOST or PORT) is set, otherwise for the base URL the hub last served on.
`;
