import { parseArgs } from 'node:util';
import type { ApiTokens } from './api-tokens.js';
import { describeReach, tokenReach } from './token-reach.js';
import { OAuthError } from './errors.js';
import type { Collections } from './records.js';
import { clientMetadata, issueClient } from './registration.js';
import { declaredCommand, type AdminCommand, type AdminOutput, type PluginHub } from '../../core/plugin/index.js';
import manifest from './manifest.js';
import { revokeClientCommand, revokeTokenCommand } from './admin-revoke.js';
import { listClients, listTokens, usageRefusal } from './admin-store.js';

/** `hub-admin clients add|list|revoke`. */
export function clientsCommand(c: Collections): AdminCommand {
  return {
    ...declaredCommand(manifest, 'clients'),
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
      if (action === 'revoke' && rest[0]) return revokeClientCommand(c, rest[0], output);
      return usageRefusal('clients', output);
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
      if (action === 'revoke' && rest[0]) return revokeTokenCommand((asked) => apiTokens.revoke(asked), rest[0], output);
      return usageRefusal('tokens', output);
    },
  };
}
