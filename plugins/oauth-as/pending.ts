import { randomUUID } from 'node:crypto';
import { EncryptJWT, exportJWK, generateSecret, importJWK, jwtDecrypt, type CryptoKey, type JWK } from 'jose';
import { OAUTH_ERROR_CODES } from './errors.js';
import type { Collections } from './records.js';
import { storedKey } from './stored-key.js';
import { HubError } from '../../core/plugin/index.js';
import { DuplicateKeyError } from '../../core/plugin/store.js';

const KEY_ID = 'pending-request-sealing';
/** How long the approval page stays valid. */
export const PENDING_SECONDS = 15 * 60;

/** An authorization request waiting for the operator's decision, as checked when it arrived. */
export interface PendingRequest {
  clientId: string;
  redirectUri: string;
  state?: string | undefined;
  codeChallenge: string;
  resource: string;
  scope: string;
}

/** A pending request opened from its seal: its id and when it expires come with it. */
export interface OpenedRequest extends PendingRequest {
  id: string;
  expiresAt: Date;
}

/**
 * Authorization requests between the approval page and the operator's answer. Anyone can
 * start one without a password, so the hub keeps none of them: the request, as checked,
 * travels in the page's form, sealed (a JWE, `dir` with A256GCM: encrypted, authenticated
 * and with an expiry) under a key kept in the store, which replicas share. Nothing is
 * written when a request arrives; what a client sent is bounded by the query's schema and
 * lives in that one browser page. Only an approval, which takes the hub password, writes:
 * the request's id until it would have expired, so one request yields one code.
 */
export class PendingRequests {
  #key: Promise<CryptoKey> | undefined;

  constructor(
    private readonly c: Collections,
    private readonly now: () => number = Date.now,
  ) {}

  async seal(request: PendingRequest): Promise<string> {
    const issuedAt = Math.floor(this.now() / 1000);
    return new EncryptJWT({ ...request })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + PENDING_SECONDS)
      .encrypt(await this.#sealingKey());
  }

  /** The request a form carried, or undefined when the seal is not the hub's, is broken or has expired. */
  async open(sealed: string): Promise<OpenedRequest | undefined> {
    let payload;
    try {
      ({ payload } = await jwtDecrypt(sealed, await this.#sealingKey(), { currentDate: new Date(this.now()) }));
    } catch {
      return undefined;
    }
    const { jti, exp, clientId, redirectUri, state, codeChallenge, resource, scope } = payload;
    const strings = [jti, clientId, redirectUri, codeChallenge, resource, scope];
    if (!strings.every((value) => typeof value === 'string') || typeof exp !== 'number' || (state !== undefined && typeof state !== 'string')) return undefined;
    return {
      id: jti as string,
      expiresAt: new Date(exp * 1000),
      clientId: clientId as string,
      redirectUri: redirectUri as string,
      state: state,
      codeChallenge: codeChallenge as string,
      resource: resource as string,
      scope: scope as string,
    };
  }

  /** Records the one decision on `request`: false when it was already decided. */
  async decide(request: OpenedRequest): Promise<boolean> {
    try {
      await this.c.decisions.insertOne({ _id: request.id, expiresAt: request.expiresAt });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  #sealingKey(): Promise<CryptoKey> {
    this.#key ??= this.#loadOrCreate().catch((error: unknown) => {
      this.#key = undefined;
      throw error;
    });
    return this.#key;
  }

  async #loadOrCreate(): Promise<CryptoKey> {
    const stored = await storedKey(this.c, KEY_ID, async () => ({ privateJwk: await exportJWK(await generateSecret('A256GCM', { extractable: true })), publicJwk: {} }));
    if (!stored) throw new HubError(OAUTH_ERROR_CODES.PENDING_KEY, 'the key that seals pending authorization requests could not be stored');
    return (await importJWK(stored.privateJwk as JWK, 'A256GCM')) as CryptoKey;
  }
}
