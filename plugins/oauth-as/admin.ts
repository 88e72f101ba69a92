import { parseArgs } from 'node:util';
import type { ApiTokens } from './api-tokens.js';
import { describeReach, tokenReach } from './token-reach.js';
import { OAuthError } from './errors.js';
import type { Collections } from './records.js';
import { clientMetadata, issueClient } from './registration.js';
import type { TokenService } from './tokens.js';
import { declaredCommand, type AdminCommand, type AdminOutput, type PluginHub } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { listClients, listTokens } from './admin-store.js';

/** `hub-admin clients add|list|revoke`. */
export function clientsCommand(c: Collections, tokens: TokenService): AdminCommand {
  const declared = declaredCommand(manifest, 'clients');
  const { usage } = declared;
  return {
    ...declared,
    async run(args, output) {
      const out = (line: string) => output.stdout(`${line}\n`);
      const [action, ...rest] = args;
      if (action === 'add') {
        const { values } = parseArgs({ args: rest, options: { 'redirect-uri': { type: 'string', multiple: true }, name: { type: 'string' }, public: { type: 'boolean' } } });
        try {
          const metadata = clientMetadata({
            redirect_uris: values['redirect-uri'] ?? [],
            token_endpoint_auth_method: values.public ? 'none' : 'client_secret_post',
            ...(values.name ? { client_name: values.name } : {}),
          });
          const issued = await issueClient(c, metadata, 'operator');
          out(`client_id: ${issued.record._id}`);
          if (issued.secret) out(`client_secret: ${issued.secret}`);
          return 0;
        } catch (error) {
          if (!(error instanceof OAuthError)) throw error;
          output.stderr(`hub-admin: ${error.description}\n`);
          return 2;
        }
      }
      if (action === 'list') return listClients(c, output);
      if (action === 'revoke' && rest[0]) {
        const clientId = rest[0];
        // A metadata-document client is known by its URL only: it is never stored until it signs in.
        if (!(await c.clients.findOne({ _id: clientId })) && !/^https:\/\//.test(clientId)) {
          output.stderr(`hub-admin: no OAuth client ${clientId} (hub-admin clients list shows them; a metadata-document client is revoked by its https URL)\n`);
          return 1;
        }
        await tokens.revokeClient(clientId);
        out(`revoked every token of ${clientId}`);
        return 0;
      }
      output.stderr(`usage: hub-admin ${usage}\n`);
      return 2;
    },
  };
}

/** The variables that decide the base URL; when none is set, tokens are for the URL the hub serves on. */
const BASE_URL_VARIABLES = ['BASE_URL', 'HOST', 'PORT'];

/** `hub-admin tokens mint|list|revoke`. */
export function tokensCommand(c: Collections, apiTokens: ApiTokens, hub: PluginHub): AdminCommand {
  const declared = declaredCommand(manifest, 'tokens');
  const { usage } = declared;
  const refuse = (output: AdminOutput, message: string): number => {
    output.stderr(`hub-admin: ${message}\nusage: hub-admin ${usage}\n`);
    return 2;
  };
  return {
    ...declared,
    async run(args, output) {
      const out = (line: string) => output.stdout(`${line}\n`);
      const [action, ...rest] = args;
      if (action === 'mint') {
        const { values } = parseArgs({
          args: rest,
          options: { label: { type: 'string' }, 'expires-in': { type: 'string' }, resource: { type: 'string', multiple: true }, servers: { type: 'string' }, all: { type: 'boolean' } },
        });
        const days = values['expires-in'] === undefined ? undefined : Number(values['expires-in']);
        if (days !== undefined && !(days > 0)) {
          output.stderr('hub-admin: --expires-in takes a positive number of days\n');
          return 2;
        }
        const servers = values.servers?.split(',');
        const reach = tokenReach(hub, { all: values.all === true, ...(values.resource && { resources: values.resource }), ...(servers && { servers }) });
        if (typeof reach === 'string') return refuse(output, reach);
        const served = await apiTokens.servedBaseUrl();
        const explicit = BASE_URL_VARIABLES.some((name) => hub.env[name]?.trim());
        const issuer = explicit || served === undefined ? hub.settings.baseUrl : served;
        const minted = await apiTokens.mint(values.label, days === undefined ? undefined : Math.round(days * 86400), { issuer, ...reach });
        out(minted.token);
        output.stderr(`token id ${minted.id}${minted.expiresAt ? `, expires ${minted.expiresAt.toISOString()}` : ', no expiry'}\n`);
        output.stderr(
          `for the hub at ${minted.issuer} (${
            explicit ? 'from BASE_URL, HOST and PORT' : served === undefined ? 'the default; no hub has served with this store yet' : 'where the hub last served with this store'
          })\n`,
        );
        output.stderr(`opens ${describeReach(reach)}\n`);
        if (explicit && served !== undefined && served !== issuer) output.stderr(`hub-admin: note: the hub last served at ${served} with this store; there this token is refused\n`);
        return 0;
      }
      if (action === 'list') return listTokens(c, output);
      if (action === 'revoke' && rest[0]) {
        const revoked = await apiTokens.revoke(rest[0]);
        if (revoked === undefined) {
          output.stderr(`hub-admin: no API token ${rest[0]} in this store (hub-admin tokens list shows the ids; is DATA_PATH or MONGODB_URL the hub's?)\n`);
          return 1;
        }
        out(`revoked API token ${revoked}`);
        return 0;
      }
      output.stderr(`usage: hub-admin ${usage}\n`);
      return 2;
    },
  };
}
