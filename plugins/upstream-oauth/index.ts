import { join } from 'node:path';
import formbody from '@fastify/formbody';
import Value from 'typebox/value';
import { StartupError } from '../../core/errors.js';
import { firstSchemaProblem, pointerToPath } from '../../core/config/schema-errors.js';
import { definePlugin } from '../../core/plugin.js';
import { SharedPassword } from '../oauth-as/password.js';
import { upstreamsCommand } from './admin.js';
import { UpstreamKey } from './key.js';
import { UpstreamOAuthEntry, UpstreamOAuthOptions } from './options.js';
import { collections, createIndexes } from './records.js';
import { registerRoutes } from './routes.js';
import { guardedFetch } from '../../core/net/guarded-fetch.js';
import { Upstream } from './upstream.js';

export default definePlugin({
  name: 'upstream-oauth',
  description: 'Outbound OAuth: the hub as OAuth client of remote servers (static, dynamic or metadata-document clients), with an operator login page.',
  enabledByDefault: true,
  reservedPaths: ['upstreams'],
  secretFiles: ['upstream-key.pem'],
  options: UpstreamOAuthOptions,
  publicSchemas: { 'server-oauth': UpstreamOAuthEntry },
  async register(app, options, hub) {
    const c = collections(hub.store);
    const key = new UpstreamKey(join(hub.settings.dataPath, 'upstream-key.pem'));
    // Metadata, registration, tokens and revocation: small answers, from URLs the upstream names.
    const fetch = guardedFetch({ allowLoopback: options.allowLoopbackAuthorizationServers, maxBytes: 1024 * 1024, timeoutMs: 10_000 });
    const upstreams = new Map<string, Upstream>();
    for (const [name, entry] of Object.entries(hub.config.mcpServers ?? {})) {
      if (entry.oauth === undefined) continue;
      const problem = firstSchemaProblem(UpstreamOAuthEntry, entry.oauth);
      if (problem || !Value.Check(UpstreamOAuthEntry, entry.oauth)) {
        throw new StartupError(`server "${name}": key "oauth${problem ? pointerToPath(problem.path).replace(/^(?=.)/, '.') : ''}": expected ${problem?.expected ?? 'an oauth object'}`);
      }
      const settings = entry.oauth;
      if (settings.mode === 'static' && settings.clientId === undefined) throw new StartupError(`server "${name}": key "oauth.clientId": mode static needs the client_id the upstream issued`);
      if (settings.clientSecretEnv !== undefined && !hub.env[settings.clientSecretEnv]) {
        throw new StartupError(`server "${name}": key "oauth.clientSecretEnv": the environment variable ${settings.clientSecretEnv} is not set`);
      }
      if (entry.url === undefined || (entry.type !== undefined && entry.type !== 'http' && entry.type !== 'sse')) {
        throw new StartupError(`server "${name}": key "oauth": upstream OAuth applies to remote servers (type http or sse with a url)`);
      }
      let url: URL;
      try {
        url = new URL(entry.url);
      } catch {
        throw new StartupError(`server "${name}": key "url": expected a URL`);
      }
      upstreams.set(name, new Upstream(name, url, settings, { hub, c, key, fetch, baseUrl: hub.settings.baseUrl, log: app.log }));
    }

    hub.children.upstreamAuth = {
      forServer: (name) => upstreams.get(name)?.transportAuth(),
    };
    hub.adminCommands.add('upstreams', upstreamsCommand(hub, upstreams), 'upstream-oauth');

    // Without an OAuth upstream there is nothing to log in to, and the store stays unopened.
    if (upstreams.size === 0) return;
    await app.register(formbody);
    registerRoutes(app, { hub, c, upstreams, password: new SharedPassword(hub), sessionSeconds: options.loginSessionSeconds });
    app.addHook('onReady', () => createIndexes(c));
  },
});
