import { revokeApiToken, revokeClient } from './revocations.js';
import type { Collections } from './records.js';
import type { AdminOutput } from '../../core/plugin/index.js';

// The revocations of `hub-admin clients revoke` and `tokens revoke`, run by the plugin's
// commands in the hub (admin.ts) and on the store alone (admin-store.ts) alike.

/** `clients revoke <client_id>`: every token of the client issued until now is withdrawn. */
export async function revokeClientCommand(c: Pick<Collections, 'clients' | 'clientRevocations' | 'families'>, clientId: string, output: AdminOutput): Promise<number> {
  // A metadata-document client is known by its URL only: it is never stored until it signs in.
  if (!(await c.clients.findOne({ _id: clientId })) && !/^https:\/\//.test(clientId)) {
    output.stderr(`hub-admin: no OAuth client ${clientId} (hub-admin clients list shows them; a metadata-document client is revoked by its https URL)\n`);
    return 1;
  }
  await revokeClient(c, clientId);
  output.stdout(`revoked every token of ${clientId}\n`);
  return 0;
}

/** `tokens revoke <token or id>`, through `revoke` (the hub's `ApiTokens`, which its own requests' checks hear of at once). */
export async function revokeTokenCommand(revoke: (tokenOrId: string) => Promise<string | undefined>, tokenOrId: string, output: AdminOutput): Promise<number> {
  const revoked = await revoke(tokenOrId);
  if (revoked === undefined) {
    output.stderr(`hub-admin: no API token ${tokenOrId} in this store (hub-admin tokens list shows the ids; is DATA_PATH or MONGODB_URL the hub's?)\n`);
    return 1;
  }
  output.stdout(`revoked API token ${revoked}\n`);
  return 0;
}

/** `tokens revoke <token or id>` on the store alone. */
export function revokeApiTokenCommand(c: Pick<Collections, 'apiTokens' | 'apiTokenRevocations'>, tokenOrId: string, output: AdminOutput): Promise<number> {
  return revokeTokenCommand((asked) => revokeApiToken(c, asked), tokenOrId, output);
}
