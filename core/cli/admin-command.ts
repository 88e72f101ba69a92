/**
 * A `hub-admin` subcommand group (`clients`, `tokens`, ...), added by a plugin. A name of
 * two words (`tools search`) is one action of a group: `hub-admin tools search ...` runs
 * it (with the words after the action) before the group's own command, which another
 * plugin may own.
 */
export interface AdminCommand {
  name: string;
  summary: string;
  usage: string;
  /** The words after the group's name (after the action's, for a two-word name); resolves with the exit code. */
  run(args: string[]): Promise<number>;
}
