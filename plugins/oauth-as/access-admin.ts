import { HUB_RESOURCE, resourceUrl, type ApiTokens } from './api-tokens.js';
import type { Collections } from './records.js';
import { describeReach, tokenReach, type ReachWords } from './token-reach.js';
import type { TokenService } from './tokens.js';
import type { AccessAdmin, PluginHub } from '../../core/plugin/index.js';

/** How a refusal names the choices of an operator UI's mint form (`hub.accessAdmin`'s callers send these keys). */
const FORM_WORDS: ReachWords = { all: '"all"', resource: '"resources"', servers: '"servers"' };

/**
 * `hub.accessAdmin`: what `hub-admin tokens` and `hub-admin clients` do, for an operator UI
 * (the console): the same reach check, the same minting and revocation. A token is minted
 * for the base URL this hub serves.
 */
export function accessAdmin(hub: PluginHub, c: Collections, apiTokens: ApiTokens, tokens: TokenService): AccessAdmin {
  return {
    listTokens: () => apiTokens.list(),
    async mintToken({ label, expiresInDays, ...asked }) {
      if (expiresInDays !== undefined && !(expiresInDays > 0)) return { refused: 'the expiry takes a positive number of days' };
      const reach = tokenReach(hub, asked, FORM_WORDS);
      if (typeof reach === 'string') return { refused: reach };
      const minted = await apiTokens.mint(label, expiresInDays === undefined ? undefined : Math.round(expiresInDays * 86400), reach);
      const names = reach.resources === undefined ? [HUB_RESOURCE] : [...reach.resources].sort((a, b) => Number(b === HUB_RESOURCE) - Number(a === HUB_RESOURCE));
      return { minted: { ...minted, endpoints: names.map((name) => resourceUrl(minted.issuer, name)), opens: describeReach(reach) } };
    },
    revokeToken: (id) => apiTokens.revoke(id),
    async listClients() {
      const clients = await c.clients.find({}, { sort: { issuedAt: 1 } });
      return Promise.all(
        clients.map(async ({ _id, source, metadata, issuedAt }) => {
          const revoked = await c.clientRevocations.findOne({ _id });
          return {
            clientId: _id,
            source,
            ...(metadata.client_name !== undefined && { name: metadata.client_name }),
            redirectUris: metadata.redirect_uris,
            // The record keeps seconds, as RFC 7591's client_id_issued_at.
            issuedAt: new Date(issuedAt * 1000),
            ...(revoked && { tokensRevokedAt: revoked.revokedAt }),
          };
        }),
      );
    },
    async revokeClient(clientId) {
      if (!(await c.clients.findOne({ _id: clientId }))) return false;
      await tokens.revokeClient(clientId);
      return true;
    },
  };
}
