import { decodeJwt, type JWTPayload } from 'jose';
import type { Collections } from './records.js';
import { DuplicateKeyError } from '../../core/plugin/store.js';

// Revocations are writes to the store and nothing else, so that `hub-admin clients revoke`
// and `tokens revoke` make them without building the hub (admin-store.ts), as the hub does.

/** A revocation marker outlives any token it could concern: ten years for tokens without expiry. */
const FOREVER_MS = 10 * 365 * 24 * 3600 * 1000;

/** Every token issued to `clientId` until now is refused from now on, and its refresh families end. */
export async function revokeClient(c: Pick<Collections, 'clientRevocations' | 'families'>, clientId: string): Promise<void> {
  const revokedAt = new Date();
  const updated = await c.clientRevocations.findOneAndUpdate({ _id: clientId }, { $set: { revokedAt } });
  if (!updated) await c.clientRevocations.insertOne({ _id: clientId, revokedAt });
  await c.families.updateMany({ clientId }, { $set: { revoked: true } });
}

/** Revokes an API token by the token or its id; resolves with the id, or undefined when no such token was minted with this store. */
export async function revokeApiToken(c: Pick<Collections, 'apiTokens' | 'apiTokenRevocations'>, tokenOrId: string): Promise<string | undefined> {
  let id = tokenOrId;
  let expiresAt = new Date(Date.now() + FOREVER_MS);
  if (tokenOrId.includes('.')) {
    let payload: JWTPayload;
    try {
      payload = decodeJwt(tokenOrId);
    } catch {
      return undefined;
    }
    id = payload.jti ?? tokenOrId;
    if (payload.exp) expiresAt = new Date(payload.exp * 1000);
  }
  if (!(await c.apiTokens.findOne({ _id: id }))) return undefined;
  try {
    await c.apiTokenRevocations.insertOne({ _id: id, expiresAt });
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
  return id;
}
