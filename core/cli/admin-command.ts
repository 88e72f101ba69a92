/** A `hub-admin` subcommand group (`clients`, `tokens`, ...), added by a plugin. */
export interface AdminCommand {
  name: string;
  summary: string;
  usage: string;
  /** The words after the group's name; resolves with the exit code. */
  run(args: string[]): Promise<number>;
}
