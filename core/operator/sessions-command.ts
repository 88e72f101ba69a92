import type { AdminCommand, AdminCommandSummary, AdminOutput } from '../cli/admin-command.js';
import type { Store } from '../store/index.js';

const USAGE = 'sessions revoke --all';

/**
 * `hub-admin sessions revoke --all`: every operator logged out at once, on every replica
 * (after a leak, say). It needs only the store, so hub-admin runs it without the hub; this
 * module imports nothing at run time, since `hub-admin --help` reads the summary.
 */
export const SESSIONS_COMMAND: AdminCommandSummary = {
  name: 'sessions',
  summary: "end every operator session (the hub's pages ask for the password again)",
  usage: USAGE,
  storeOnly: { actions: ['revoke'], load: async () => revokeSessions },
};

async function revokeSessions(store: Store, args: string[], output: AdminOutput): Promise<number> {
  if (args.length !== 2 || args[0] !== 'revoke' || args[1] !== '--all') {
    output.stderr(`hub-admin: usage: hub-admin ${USAGE}\n`);
    return 2;
  }
  const { endAllOperatorSessions } = await import('./sessions.js');
  const ended = await endAllOperatorSessions(store);
  output.stdout(`ended ${ended} operator session${ended === 1 ? '' : 's'}\n`);
  return 0;
}

/** The same command in a running hub's registry (hub-admin without the fast path: a config naming a third-party plugin). */
export function sessionsCommand(store: Store): AdminCommand {
  return { ...SESSIONS_COMMAND, run: (args, output) => revokeSessions(store, args, output) };
}
