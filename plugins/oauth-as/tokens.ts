import { randomUUID } from 'node:crypto';
import type { OAuthAsOptions } from './options.js';
import { OAuthError } from './errors.js';
import type { AccessTokenRecord, Collections, FamilyRecord } from './records.js';
import { revokeClient } from './revocations.js';
import { derivedSecret, hashSecret, newSecret } from '../../core/plugin/auth.js';
import { DuplicateKeyError } from '../../core/plugin/store.js';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope?: string;
}

interface Grant {
  clientId: string;
  resource: string;
  scope: string;
}

/**
 * Access tokens are opaque random strings; the store keeps only their hash, so
 * verification is one primary-key lookup. Refresh tokens rotate on every use inside a
 * family; presenting a retired one revokes the whole family and its access tokens.
 *
 * One exception, for an answer lost on the way (the hub killed mid-rotation, a dropped
 * connection): the token just replaced, presented again within `refreshRetrySeconds` and
 * before its successor was used, gets the very same answer. A rotation's new tokens are
 * derived from the presented token and a secret seed of the family, so the retry is
 * answered alike without the store keeping any token: there is never a second chain.
 * Only one rotation in a family's life can be answered again (however often, for
 * concurrent retries): someone holding a copy of the chain who repeats each rotation
 * after its owner, to follow along, is a replay at the second one.
 */
export class TokenService {
  constructor(
    private readonly c: Collections,
    private readonly options: OAuthAsOptions,
  ) {}

  /** How long an access token lives. */
  get accessTokenSeconds(): number {
    return this.options.accessTokenSeconds;
  }

  /** A new family after a login: the first refresh token and an access token. */
  async startFamily(grant: Grant, familyId: string = randomUUID()): Promise<TokenResponse> {
    const refresh = newSecret('hrt');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.options.refreshTokenSeconds * 1000);
    // Independent records: written side by side (see core/store/file-lease.ts).
    const [response] = await Promise.all([
      this.#issue(grant, familyId, newSecret('hat'), refresh, now),
      this.c.families.insertOne({ _id: familyId, ...grant, current: hashSecret(refresh), seed: newSecret('seed'), issuedAt: now, expiresAt }),
      this.c.refreshTokens.insertOne({ _id: hashSecret(refresh), familyId, expiresAt }),
    ]);
    return response;
  }

  /** Rotates a refresh token: exactly one of concurrent presenters wins. */
  async refresh(refreshToken: string, clientId: string, requestedResource: string | undefined): Promise<TokenResponse> {
    const hash = hashSecret(refreshToken);
    const known = await this.c.refreshTokens.findOne({ _id: hash });
    const family = known ? await this.c.families.findOne({ _id: known.familyId }) : null;
    if (!known || !family || family.revoked) throw new OAuthError('invalid_grant', 'the refresh token is not valid');
    if (family.clientId !== clientId) throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
    if (requestedResource !== undefined && requestedResource !== family.resource) {
      throw new OAuthError('invalid_target', 'a refresh token is bound to the resource it was issued for');
    }
    if (await this.#clientRevokedSince(clientId, family.issuedAt)) throw new OAuthError('invalid_grant', "the client's tokens were revoked");

    // Families from before seeds existed get one with their next rotation.
    const seed = family.seed ?? newSecret('seed');
    const rotated = await this.c.families.findOneAndUpdate(
      { _id: family._id, current: hash, revoked: { $ne: true } },
      { $set: { current: hashSecret(derivedSecret('hrt', seed, refreshToken)), previous: hash, rotatedAt: new Date(), seed } },
    );
    if (rotated) return this.#rotation(rotated, refreshToken, false);
    const retried = await this.c.families.findOneAndUpdate(
      {
        _id: family._id,
        previous: hash,
        revoked: { $ne: true },
        rotatedAt: { $gt: new Date(Date.now() - this.options.refreshRetrySeconds * 1000) },
        $or: [{ retried: { $exists: false } }, { retried: hash }],
      },
      { $set: { retried: hash } },
    );
    if (retried) return this.#rotation(retried, refreshToken, true);
    // A retired token came back: two parties hold one chain. Withdraw all of it.
    await this.revokeFamily(family._id);
    throw new OAuthError('invalid_grant', 'the refresh token was already used; its family is revoked');
  }

  /**
   * The answer of the rotation that replaced `presented`: its tokens derived again, its
   * records written unless a first answer wrote them (a retry must not bring back an
   * access token revoked since). The refresh record is written last: it marks the rest done.
   */
  async #rotation(family: FamilyRecord, presented: string, retry: boolean): Promise<TokenResponse> {
    const seed = family.seed ?? '';
    const next = derivedSecret('hrt', seed, presented);
    const access = derivedSecret('hat', seed, next);
    const issuedAt = family.rotatedAt ?? new Date();
    const written = retry && (await this.c.refreshTokens.findOne({ _id: hashSecret(next) })) !== null;
    const response = await this.#issue(family, family._id, access, next, issuedAt, written);
    if (!written) await once(this.c.refreshTokens.insertOne({ _id: hashSecret(next), familyId: family._id, expiresAt: family.expiresAt }));
    return response;
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.c.families.updateMany({ _id: familyId }, { $set: { revoked: true } });
    await this.c.accessTokens.deleteMany({ familyId });
  }

  /**
   * RFC 7009: withdraws the one token presented (an access token, or a refresh token and
   * with it its family, since the family is what the refresh token stands for) when it
   * belongs to the requesting client. Unknown tokens are not an error.
   */
  async revoke(token: string, clientId: string): Promise<void> {
    const hash = hashSecret(token);
    const access = await this.c.accessTokens.findOne({ _id: hash });
    if (access) {
      if (access.clientId === clientId) await this.c.accessTokens.deleteOne({ _id: hash });
      return;
    }
    const refresh = await this.c.refreshTokens.findOne({ _id: hash });
    const family = refresh ? await this.c.families.findOne({ _id: refresh.familyId }) : null;
    if (family && family.clientId === clientId && family.current === hash) await this.c.families.updateMany({ _id: family._id }, { $set: { revoked: true } });
  }

  /** The token's record when it is live, for the resource, and its client not revoked. */
  async verify(token: string, resource: string): Promise<AccessTokenRecord | undefined> {
    const record = await this.c.accessTokens.findOne({ _id: hashSecret(token) });
    if (!record || record.resource !== resource || record.expiresAt.getTime() <= Date.now()) return undefined;
    if (await this.#clientRevokedSince(record.clientId, record.issuedAt)) return undefined;
    return record;
  }

  /** Every token of the client issued until now is withdrawn (the console, a client deleting itself; hub-admin writes the same through revocations.ts). */
  async revokeClient(clientId: string): Promise<void> {
    await revokeClient(this.c, clientId);
  }

  async #clientRevokedSince(clientId: string, issuedAt: Date): Promise<boolean> {
    // On every request with an OAuth token, and almost always a miss: as fresh as the store's staleness bound.
    const marker = await this.c.clientRevocations.findOne({ _id: clientId }, { staleness: 'bounded' });
    return marker !== null && marker.revokedAt.getTime() >= issuedAt.getTime();
  }

  /** The token answer; the access token's record is written unless it already was. */
  async #issue(grant: Grant, familyId: string, access: string, refresh: string, issuedAt: Date, written = false): Promise<TokenResponse> {
    const expiresAt = new Date(issuedAt.getTime() + this.options.accessTokenSeconds * 1000);
    if (!written) {
      await once(this.c.accessTokens.insertOne({ _id: hashSecret(access), clientId: grant.clientId, resource: grant.resource, scope: grant.scope, familyId, issuedAt, expiresAt }));
    }
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.max(1, Math.round((expiresAt.getTime() - Date.now()) / 1000)),
      refresh_token: refresh,
      ...(grant.scope ? { scope: grant.scope } : {}),
    };
  }
}

/** A record written twice by concurrent answers to one rotation is the same record. */
async function once(write: Promise<void>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
  }
}
