import { join } from 'node:path';
import Value from 'typebox/value';
import { upstreamsCommand } from './admin.js';
import { UpstreamKey } from './key.js';
import { UpstreamOAuthEntry, UpstreamOAuthOptions } from './options.js';
import { collections, createIndexes } from './records.js';
import { registerRoutes } from './routes.js';
import { Upstream } from './upstream.js';
import { guardedFetch, withSecretFiles } from '../../core/plugin/auth.js';
import { definePlugin, HUB_ERROR_CODES, StartupError } from '../../core/plugin/index.js';
import manifest from './manifest.js';

export default definePlugin({
  ...manifest,
  // Its credentials are lent to the remote child types (`upstreamAuth`).
  dependencies: ['lifecycle-remote'],
  reservedPaths: ['upstreams'],
  secretFiles: ['upstream-key.pem'],
  options: UpstreamOAuthOptions,
  publicSchemas: { 'server-oauth': UpstreamOAuthEntry },
  serverKeys: { oauth: UpstreamOAuthEntry },
  async register(app, options, hub) {
    const c = collections(hub.store);
    const key = new UpstreamKey(join(hub.settings.dataPath, 'upstream-key.pem'));
    // Metadata, registration, tokens and revocation: small answers, from URLs the upstream names.
    const fetch = guardedFetch({ allowLoopback: options.allowLoopbackAuthorizationServers, maxBytes: 1024 * 1024, timeoutMs: 10_000 });
    const upstreams = new Map<string, Upstream>();
    // A client secret may come from a file too (`<clientSecretEnv>_FILE`), as the hub's own secrets do.
    const secretNames = Object.values(hub.config.mcpServers ?? {}).flatMap((entry) => {
      const oauth = (entry as { oauth?: unknown }).oauth;
      return Value.Check(UpstreamOAuthEntry, oauth) && oauth.clientSecretEnv !== undefined ? [oauth.clientSecretEnv] : [];
    });
    const env = await withSecretFiles(hub.env, secretNames);
    for (const [name, entry] of Object.entries(hub.config.mcpServers ?? {})) {
      // The kernel checked the key against UpstreamOAuthEntry (this plugin's serverKeys).
      const settings = (entry as { oauth?: unknown }).oauth;
      if (settings === undefined || !Value.Check(UpstreamOAuthEntry, settings)) continue;
      if (settings.mode === 'static' && settings.clientId === undefined)
        throw new StartupError(`server "${name}": key "oauth.clientId": mode static needs the client_id the upstream issued`, { code: HUB_ERROR_CODES.CONFIG_INVALID });
      if (settings.clientSecretEnv !== undefined && !env[settings.clientSecretEnv]) {
        throw new StartupError(`server "${name}": key "oauth.clientSecretEnv": the environment variable ${settings.clientSecretEnv} (or ${settings.clientSecretEnv}_FILE) is not set`, {
          code: HUB_ERROR_CODES.CONFIG_INVALID,
        });
      }
      // A REST API (the openapi type) is the resource at its base URL.
      const [urlKey, address] =
        entry.type === 'openapi' ? ['baseUrl', (entry as { baseUrl?: unknown }).baseUrl] : ['url', entry.type === undefined || entry.type === 'http' || entry.type === 'sse' ? entry.url : undefined];
      if (typeof address !== 'string') {
        throw new StartupError(`server "${name}": key "oauth": upstream OAuth applies to remote servers (type http or sse with a url) and to openapi servers with a baseUrl`, {
          code: HUB_ERROR_CODES.CONFIG_INVALID,
        });
      }
      let url: URL;
      try {
        url = new URL(address);
      } catch (error) {
        throw new StartupError(`server "${name}": key "${urlKey}": expected a URL`, { code: HUB_ERROR_CODES.CONFIG_INVALID, cause: error });
      }
      upstreams.set(name, new Upstream(name, url, settings, { hub, env, c, key, fetch, log: app.log }));
    }

    hub.upstreamAuth.provide({ forServer: (name) => upstreams.get(name)?.transportAuth() });
    hub.adminCommands.add('upstreams', upstreamsCommand(hub, upstreams));

    // Without an OAuth upstream there is nothing to log in to, and the store stays unopened.
    if (upstreams.size === 0) return;
    hub.pages.add('upstreams', { title: 'Upstream logins', path: '/upstreams' });
    await registerRoutes(app, { hub, c, upstreams });
    app.addHook('onReady', () => createIndexes(c));
  },
});
