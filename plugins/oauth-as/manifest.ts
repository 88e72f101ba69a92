import type { PluginManifest } from '../../core/plugin/index.js';

/** What the hub reads of this plugin before it decides to import it (see docs/plugins.md). */
const manifest: PluginManifest = {
  name: 'oauth-as',
  description: 'Inbound OAuth: the hub as authorization server and resource server for its MCP endpoints.',
  enabledByDefault: true,
  adminCommands: [
    {
      name: 'clients',
      summary: 'issue, list and revoke OAuth clients',
      usage: 'clients add --redirect-uri <url> [--redirect-uri <url>...] [--name <name>] [--public] | clients list | clients revoke <client_id>',
      storeOnly: { actions: ['list', 'revoke'], load: async () => (await import('./admin-store.js')).clientsFromStore },
    },
    {
      name: 'tokens',
      summary: 'mint, list and revoke API tokens',
      usage: 'tokens mint (--resource <hub|server> [--resource ...] [--servers <a,b>] | --all) [--label <text>] [--expires-in <days>] | tokens list | tokens revoke <token or id>',
      storeOnly: { actions: ['list', 'revoke'], load: async () => (await import('./admin-store.js')).tokensFromStore },
    },
  ],
};

export default manifest;
