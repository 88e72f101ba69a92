import type { Collections } from './records.js';

// Apart from api-tokens.ts (which signs and verifies with jose): `hub-admin tokens list`
// reads the store with nothing more than this loaded.

/**
 * Where a token is accepted: `resources` names the endpoints (`hub` for `/hub`, a server's
 * name for `/<name>/mcp`), absent for every endpoint; `servers` limits a `/hub` token to
 * those servers' tools, absent for all of them.
 */
export interface TokenReach {
  resources?: readonly string[];
  servers?: readonly string[];
}

/** The resource name of `/hub`; no server can take it (the kernel reserves the path). */
export const HUB_RESOURCE = 'hub';

/** A minted token as listed: what was recorded, and whether it was revoked since. */
export interface ListedToken extends TokenReach {
  id: string;
  label?: string;
  issuer: string;
  issuedAt: Date;
  expiresAt?: Date;
  lastUsedAt?: Date;
  revoked: boolean;
}

/** The tokens minted and not yet expired, oldest first, revoked ones marked. */
export async function listApiTokens(c: Pick<Collections, 'apiTokens' | 'apiTokenRevocations'>): Promise<ListedToken[]> {
  const records = await c.apiTokens.find({}, { sort: { issuedAt: 1 } });
  return Promise.all(records.map(async ({ _id, ...record }) => ({ id: _id, ...record, revoked: (await c.apiTokenRevocations.findOne({ _id })) !== null })));
}
