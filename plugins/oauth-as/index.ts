import { accessAdmin } from './access-admin.js';
import { createAuthenticator } from './authenticator.js';
import { clientsCommand, tokensCommand } from './admin.js';
import { ApiTokens } from './api-tokens.js';
import { registerAuthorize } from './authorize.js';
import { ClientAuthenticator } from './client-auth.js';
import { registerDiscovery } from './discovery.js';
import { Endpoints } from './endpoints.js';
import { MetadataDocumentFetcher } from './metadata-document.js';
import { PendingRequests } from './pending.js';
import { OAuthAsOptions } from './options.js';
import { collections, createIndexes } from './records.js';
import { registerRegistration } from './registration.js';
import { registerRevocation } from './revocation.js';
import { oauthErrors, registerTokenEndpoint } from './token-endpoint.js';
import { TokenService } from './tokens.js';
import { typeBoxRoutes } from './validation.js';
import { definePlugin, ownFormParser } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { WindowCounter } from '../../core/plugin/store.js';

export default definePlugin({
  ...manifest,
  reservedPaths: ['.well-known', 'authorize', 'token', 'register', 'revoke', 'jwks'],
  options: OAuthAsOptions,
  async register(app, options, hub) {
    const c = collections(hub.store);
    const endpoints = new Endpoints(hub);
    const tokens = new TokenService(c, options);
    const apiTokens = new ApiTokens(c, () => endpoints.issuer);
    const clients = new ClientAuthenticator(c, new MetadataDocumentFetcher(options.allowLoopbackMetadataDocuments), endpoints);

    hub.authenticator.provide(createAuthenticator(hub, endpoints, tokens, apiTokens));
    hub.adminCommands.add('clients', clientsCommand(c));
    hub.adminCommands.add('tokens', tokensCommand(c, apiTokens, hub));
    hub.accessAdmin.provide(accessAdmin(hub, c, apiTokens, tokens));

    await ownFormParser(app);
    oauthErrors(app, hub);
    const routes = typeBoxRoutes(app);
    registerDiscovery(routes, endpoints, options.dynamicRegistration);
    await registerAuthorize(app, { c, clients, endpoints, pending: new PendingRequests(c), operator: hub.operator, options });
    registerTokenEndpoint(routes, hub, c, clients, tokens, endpoints);
    registerRevocation(routes, clients, tokens);
    if (options.dynamicRegistration) {
      const { maxDynamicClients, unusedClientSeconds } = options;
      registerRegistration(routes, c, endpoints, tokens, { maxDynamicClients, unusedClientSeconds, perAddress: new WindowCounter(hub.store, 'registrations', 3600_000) });
    }

    // TTL indexes also hide expired records from every read (see core/store/ttl.ts).
    app.addHook('onReady', () => createIndexes(c));
    // The base URL served on is noted for hub-admin to mint tokens for, before the hub says it listens.
    hub.beforeServing(() => apiTokens.recordServed());
  },
});
