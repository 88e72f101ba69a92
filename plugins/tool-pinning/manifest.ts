import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'tool-pinning',
  description: 'Withholds a tool whose definition changed, or a new one, until an operator approves it (pinTools, hub-admin tools, /tool-approvals).',
  enabledByDefault: true,
  adminCommands: [
    {
      name: 'tools',
      summary: 'review and approve the tool definitions (and instructions) of servers that pin them',
      usage: 'tools pending [<server>] | tools approve <server> [<tool> | --instructions] | tools list [<server>]',
    },
  ],
};

export default manifest;
