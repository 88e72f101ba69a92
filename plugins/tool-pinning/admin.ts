import { INSTRUCTIONS } from './instructions.js';
import type { ApprovalTarget, ToolPins } from './pins.js';
import { declaredCommand, type AdminCommand, type AdminOutput, type PluginHub } from '../../core/plugin/index.js';
import manifest from './manifest.js';

const indented = (text: string) => text.replace(/^/gm, '    ');

/** The option of `tools approve` that names a server's instructions instead of a tool. */
const INSTRUCTIONS_OPTION = '--instructions';

/** How a pin or change is named in a line: its tool, or `(instructions)`. */
const itemName = (record: { tool: string; item?: string }) => (record.item === INSTRUCTIONS ? '(instructions)' : record.tool);

/** `hub-admin tools pending|approve|list`: what waits for approval, approving it, and what is approved. */
export function toolsCommand(pins: ToolPins, hub: PluginHub): AdminCommand {
  const declared = declaredCommand(manifest, 'tools');
  const { usage } = declared;
  const refuse = (output: AdminOutput, message: string): number => {
    output.stderr(`hub-admin: ${message}\n`);
    return 2;
  };
  /** Why `name` cannot be asked about, if it cannot. */
  const problem = (name: string | undefined): string | undefined => {
    if (name === undefined) return undefined;
    const server = hub.servers.get(name);
    if (!server)
      return `no server is named "${name}" (configured: ${
        hub.servers
          .list()
          .map((view) => view.name)
          .join(', ') || 'none'
      })`;
    if (!pins.pins(server)) return `server "${name}" does not pin its tools: set "pinTools": true on it, or the tool-pinning plugin's "allServers"`;
    return undefined;
  };
  return {
    ...declared,
    async run(args, output) {
      const out = (line: string) => output.stdout(`${line}\n`);
      const [action, server, tool, ...extra] = args;
      if (extra.length > 0 || (action !== 'approve' && tool !== undefined) || !['pending', 'approve', 'list'].includes(action ?? '')) {
        output.stderr(`usage: hub-admin ${usage}\n`);
        return 2;
      }
      const refused = action === 'approve' && server === undefined ? 'say which server: tools approve <server> [<tool>]' : problem(server);
      if (refused !== undefined) return refuse(output, refused);
      if (action === 'pending') {
        const changes = await pins.pending(server);
        if (changes.length === 0) output.stderr('no tool definition waits for approval\n');
        for (const change of changes) {
          out(`${change.server} ${itemName(change)}: ${change.approved === undefined ? 'new' : 'changed'}, seen ${change.seenAt.toISOString()}`);
          out(indented(change.tooLarge === undefined ? change.diff : `cannot be approved: ${change.tooLarge}`));
        }
        return 0;
      }
      if (action === 'list') {
        for (const pin of await pins.approved(server)) out([pin.server, itemName(pin), pin.approvedAt.toISOString(), pin.approvedBy, pin.digests.at(-1)?.slice(0, 12) ?? ''].join('\t'));
        return 0;
      }
      // A tool named like the option is approved with the rest of its server's (`tools approve <server>`).
      const target: ApprovalTarget = tool === undefined ? 'all' : tool === INSTRUCTIONS_OPTION ? INSTRUCTIONS : { tool };
      const approved = await pins.approve(server as string, target, 'hub-admin');
      if (approved.length === 0) {
        const what = target === 'all' ? `of server "${server}"` : target === INSTRUCTIONS ? `of the instructions of server "${server}"` : `named "${tool}" on server "${server}"`;
        output.stderr(`hub-admin: nothing ${what} waits for approval (hub-admin tools pending lists what does)\n`);
        return 1;
      }
      for (const approval of approved) {
        out(`approved ${approval.server} ${itemName(approval)} (${approval.digest.slice(0, 12)})`);
        out(indented(approval.diff));
      }
      return 0;
    },
  };
}
