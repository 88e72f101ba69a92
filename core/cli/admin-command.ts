import type { Store } from '../store/port.js';

/**
 * A `hub-admin` subcommand group (`clients`, `tokens`, ...), added by a plugin. A name of
 * two words (`tools search`) is one action of a group: `hub-admin tools search ...` runs
 * it (with the words after the action) before the group's own command, which another
 * plugin may own.
 */
export interface AdminCommand extends AdminCommandSummary {
  /** The words after the group's name (after the action's, for a two-word name); resolves with the exit code. */
  run(args: string[], output: AdminOutput): Promise<number>;
}

/** Where a command writes: the process's stdout and stderr in hub-admin, a test's buffers in-process. */
export interface AdminOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processOutput: AdminOutput = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/**
 * What `hub-admin` knows of a built-in plugin's command from its manifest, before it
 * imports anything of the hub: `hub-admin --help` lists these, and an action that needs
 * only the store runs without the hub being built (no kernel, Fastify or SDK loaded).
 */
export interface AdminCommandSummary {
  name: string;
  summary: string;
  usage: string;
  /** Actions (the first word after the name) that read or write only the store. */
  storeOnly?: StoreOnlyActions;
}

export interface StoreOnlyActions {
  actions: readonly string[];
  /** Imports the code that runs them; it is given the opened store and the words after the group's name. */
  load(): Promise<(store: Store, args: string[], output: AdminOutput) => Promise<number>>;
}

/** The command `name` as the plugin's manifest declares it: a plugin's `register` adds the command its manifest lists. */
export function declaredCommand(plugin: { name: string; adminCommands?: readonly AdminCommandSummary[] }, name: string): AdminCommandSummary {
  const declared = plugin.adminCommands?.find((command) => command.name === name);
  if (!declared) throw new Error(`plugin "${plugin.name}" adds the hub-admin command "${name}", which its manifest does not declare`);
  return declared;
}
