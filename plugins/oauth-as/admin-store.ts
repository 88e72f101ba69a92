import { HUB_RESOURCE, listApiTokens } from './api-token-list.js';
import manifest from './manifest.js';
import { collections, expiryIndex, type Collections } from './records.js';
import type { AdminOutput } from '../../core/plugin/index.js';
import type { Store } from '../../core/plugin/store.js';

// `clients list|revoke` and `tokens list|revoke` read and write the store only: the manifest
// hands them to hub-admin, which runs them without building the hub (admin.ts runs them
// inside it, with the same functions). A revocation's code (admin-revoke.ts: jose, the
// plugin surface's store entry) is imported only for a revocation, so a listing loads neither.

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

/** The usage line of one of the plugin's commands, as a refusal: exit code 2. */
export function usageRefusal(name: 'clients' | 'tokens', output: AdminOutput): number {
  output.stderr(`usage: hub-admin ${manifest.adminCommands?.find((command) => command.name === name)?.usage ?? name}\n`);
  return 2;
}

/*
 * The collections an action reads, with the TTL index the plugin gives each (which hides
 * what expired); only those, since the embedded store loads a collection's file on first use.
 */

/** `hub-admin clients list|revoke` on the store alone (the manifest's store-only actions of `clients`). */
export async function clientsFromStore(store: Store, args: string[], output: AdminOutput): Promise<number> {
  const c = collections(store);
  const [action, clientId] = args;
  await expiryIndex(c.clients);
  if (action === 'list') return listClients(c, output);
  if (action === 'revoke' && clientId) {
    await expiryIndex(c.families);
    const { revokeClientCommand } = await import('./admin-revoke.js');
    return revokeClientCommand(c, clientId, output);
  }
  return usageRefusal('clients', output);
}

/** `hub-admin tokens list|revoke` on the store alone. */
export async function tokensFromStore(store: Store, args: string[], output: AdminOutput): Promise<number> {
  const c = collections(store);
  const [action, tokenOrId] = args;
  await Promise.all([expiryIndex(c.apiTokens), expiryIndex(c.apiTokenRevocations)]);
  if (action === 'list') return listTokens(c, output);
  if (action === 'revoke' && tokenOrId) {
    const { revokeApiTokenCommand } = await import('./admin-revoke.js');
    return revokeApiTokenCommand(c, tokenOrId, output);
  }
  return usageRefusal('tokens', output);
}
