import type { AdminCommand } from '../cli/admin-command.js';
import type { Store } from '../store/index.js';
import { endAllOperatorSessions } from './sessions.js';

/** `hub-admin sessions revoke --all`: every operator logged out at once, on every replica (after a leak, say). */
export function sessionsCommand(store: Store): AdminCommand {
  const usage = 'sessions revoke --all';
  return {
    name: 'sessions',
    summary: "end every operator session (the hub's pages ask for the password again)",
    usage,
    async run(args) {
      if (args.length !== 2 || args[0] !== 'revoke' || args[1] !== '--all') {
        process.stderr.write(`hub-admin: usage: hub-admin ${usage}\n`);
        return 2;
      }
      const ended = await endAllOperatorSessions(store);
      process.stdout.write(`ended ${ended} operator session${ended === 1 ? '' : 's'}\n`);
      return 0;
    },
  };
}
