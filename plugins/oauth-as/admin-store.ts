import { HUB_RESOURCE, listApiTokens } from './api-token-list.js';
import { collections, expiryIndex, type Collections } from './records.js';
import type { AdminOutput } from '../../core/plugin/index.js';
import type { Store } from '../../core/plugin/store.js';

// `clients list` and `tokens list` read the store only: the manifest hands them to
// hub-admin, which runs them without building the hub (admin.ts runs them inside it).

export async function listClients(c: Pick<Collections, 'clients'>, output: AdminOutput): Promise<number> {
  const out = (line: string) => output.stdout(`${line}\n`);
  const clients = await c.clients.find({}, { sort: { issuedAt: 1 } });
  out(['CLIENT ID', 'SOURCE', 'NAME', 'REDIRECT URIS'].join('\t'));
  for (const client of clients) out(`${client._id}\t${client.source}\t${client.metadata.client_name ?? ''}\t${client.metadata.redirect_uris.join(' ')}`);
  if (clients.length === 0) output.stderr('no OAuth clients yet: clients register themselves, or hub-admin clients add issues one\n');
  return 0;
}

export async function listTokens(c: Pick<Collections, 'apiTokens' | 'apiTokenRevocations'>, output: AdminOutput): Promise<number> {
  const out = (line: string) => output.stdout(`${line}\n`);
  const listed = await listApiTokens(c);
  out(['ID', 'STATUS', 'ISSUED', 'EXPIRES', 'LAST USED', 'BASE URL', 'RESOURCES', 'SERVERS', 'LABEL'].join('\t'));
  for (const token of listed) {
    const expires = token.expiresAt ? token.expiresAt.toISOString() : 'never';
    const servers = token.resources && !token.resources.includes(HUB_RESOURCE) ? '-' : (token.servers?.join(',') ?? 'all');
    out(
      [
        token.id,
        token.revoked ? 'revoked' : 'active',
        token.issuedAt.toISOString(),
        expires,
        token.lastUsedAt?.toISOString() ?? 'never',
        token.issuer,
        token.resources?.join(',') ?? 'all',
        servers,
        token.label ?? '',
      ].join('\t'),
    );
  }
  if (listed.length === 0) output.stderr('no API tokens (expired ones are not listed): hub-admin tokens mint makes one\n');
  return 0;
}

/*
 * The collections a listing reads, with the TTL index the plugin gives each (which hides
 * what expired); only those, since the embedded store loads a collection's file on first use.
 */

/** `hub-admin clients list` on the store alone (the manifest's only store-only action of `clients`). */
export async function clientsFromStore(store: Store, _args: string[], output: AdminOutput): Promise<number> {
  const { clients } = collections(store);
  await expiryIndex(clients);
  return listClients({ clients }, output);
}

/** `hub-admin tokens list` on the store alone. */
export async function tokensFromStore(store: Store, _args: string[], output: AdminOutput): Promise<number> {
  const { apiTokens, apiTokenRevocations } = collections(store);
  await Promise.all([expiryIndex(apiTokens), expiryIndex(apiTokenRevocations)]);
  return listTokens({ apiTokens, apiTokenRevocations }, output);
}
