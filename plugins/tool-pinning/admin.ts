import type { ToolPins } from './pins.js';
import type { AdminCommand, PluginHub } from '../../core/plugin/index.js';

const out = (line: string) => process.stdout.write(`${line}\n`);
const indented = (text: string) => text.replace(/^/gm, '    ');

/** `hub-admin tools pending|approve|list`: what waits for approval, approving it, and what is approved. */
export function toolsCommand(pins: ToolPins, hub: PluginHub): AdminCommand {
  const usage = 'tools pending [<server>] | tools approve <server> [<tool>] | tools list [<server>]';
  const refuse = (message: string): number => {
    process.stderr.write(`hub-admin: ${message}\n`);
    return 2;
  };
  /** Why `name` cannot be asked about, if it cannot. */
  const problem = (name: string | undefined): string | undefined => {
    if (name === undefined) return undefined;
    const server = hub.servers.get(name);
    if (!server) return `no server is named "${name}" (configured: ${hub.servers.list().map((view) => view.name).join(', ') || 'none'})`;
    if (!pins.pins(server)) return `server "${name}" does not pin its tools: set "pinTools": true on it, or the tool-pinning plugin's "allServers"`;
    return undefined;
  };
  return {
    name: 'tools',
    summary: 'review and approve the tool definitions of servers that pin them',
    usage,
    async run(args) {
      const [action, server, tool, ...extra] = args;
      if (extra.length > 0 || (action !== 'approve' && tool !== undefined) || !['pending', 'approve', 'list'].includes(action ?? '')) {
        process.stderr.write(`usage: hub-admin ${usage}\n`);
        return 2;
      }
      const refused = action === 'approve' && server === undefined ? 'say which server: tools approve <server> [<tool>]' : problem(server);
      if (refused !== undefined) return refuse(refused);
      if (action === 'pending') {
        const changes = await pins.pending(server);
        if (changes.length === 0) process.stderr.write('no tool definition waits for approval\n');
        for (const change of changes) {
          out(`${change.server} ${change.tool}: ${change.approved === undefined ? 'new' : 'changed'}, seen ${change.seenAt.toISOString()}`);
          out(indented(change.tooLarge === undefined ? change.diff : `cannot be approved: ${change.tooLarge}`));
        }
        return 0;
      }
      if (action === 'list') {
        for (const pin of await pins.approved(server)) out([pin.server, pin.tool, pin.approvedAt.toISOString(), pin.approvedBy, pin.digests.at(-1)?.slice(0, 12) ?? ''].join('\t'));
        return 0;
      }
      const approved = await pins.approve(server as string, tool, 'hub-admin');
      if (approved.length === 0) {
        process.stderr.write(`hub-admin: nothing ${tool === undefined ? `of server "${server}"` : `named "${tool}" on server "${server}"`} waits for approval (hub-admin tools pending lists what does)\n`);
        return 1;
      }
      for (const approval of approved) {
        out(`approved ${approval.server} ${approval.tool} (${approval.digest.slice(0, 12)})`);
        out(indented(approval.diff));
      }
      return 0;
    },
  };
}
