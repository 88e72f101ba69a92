import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'upstream-oauth',
  description: 'Outbound OAuth: the hub as OAuth client of remote servers (static, dynamic or metadata-document clients), with an operator login page.',
  enabledByDefault: true,
  adminCommands: [
    { name: 'upstreams', summary: 'show, log in to and log out of OAuth-protected remote servers', usage: 'upstreams status [<name>] | upstreams login <name> | upstreams logout <name>' },
  ],
};

export default manifest;
