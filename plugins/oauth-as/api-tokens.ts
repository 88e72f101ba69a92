import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, decodeJwt, type CryptoKey, type JWK } from 'jose';
import { DuplicateKeyError } from '../../core/store/index.js';
import type { Collections } from './records.js';

const KEY_ID = 'api-token-signing';
/** A revocation marker outlives any token it could concern: ten years for tokens without expiry. */
const FOREVER_MS = 10 * 365 * 24 * 3600 * 1000;

export interface MintedToken {
  token: string;
  id: string;
  expiresAt?: Date;
}

/**
 * Operator-minted API tokens: EdDSA-signed JWTs whose key lives in the store (so hub
 * replicas share it) and is published nowhere, so only the hub can verify them.
 */
export class ApiTokens {
  #keys: Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> | undefined;

  constructor(
    private readonly c: Collections,
    private readonly issuer: string,
  ) {}

  get audience(): string {
    return `${this.issuer}#api`;
  }

  async mint(label: string | undefined, expiresInSeconds: number | undefined): Promise<MintedToken> {
    const { privateKey } = await this.#keyPair();
    const id = randomUUID();
    const jwt = new SignJWT({ ...(label ? { label } : {}) })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'hub-api+jwt' })
      .setIssuer(this.issuer)
      .setAudience(this.audience)
      .setSubject('hub')
      .setJti(id)
      .setIssuedAt();
    const expiresAt = expiresInSeconds === undefined ? undefined : new Date(Date.now() + expiresInSeconds * 1000);
    if (expiresAt) jwt.setExpirationTime(Math.floor(expiresAt.getTime() / 1000));
    return { token: await jwt.sign(privateKey), id, ...(expiresAt ? { expiresAt } : {}) };
  }

  /** The token's id and expiry when it verifies and is not revoked. */
  async verify(token: string): Promise<{ id: string; label?: string; expiresAt?: number } | undefined> {
    const { publicKey } = await this.#keyPair();
    try {
      const { payload } = await jwtVerify(token, publicKey, { issuer: this.issuer, audience: this.audience, algorithms: ['EdDSA'], typ: 'hub-api+jwt', requiredClaims: ['jti'] });
      const id = payload.jti ?? '';
      if (await this.c.apiTokenRevocations.findOne({ _id: id })) return undefined;
      return { id, ...(typeof payload.label === 'string' ? { label: payload.label } : {}), ...(payload.exp ? { expiresAt: payload.exp } : {}) };
    } catch {
      return undefined;
    }
  }

  /** Revokes by token or by id; returns the id. */
  async revoke(tokenOrId: string): Promise<string> {
    let id = tokenOrId;
    let expiresAt = new Date(Date.now() + FOREVER_MS);
    if (tokenOrId.includes('.')) {
      const payload = decodeJwt(tokenOrId);
      id = payload.jti ?? tokenOrId;
      if (payload.exp) expiresAt = new Date(payload.exp * 1000);
    }
    try {
      await this.c.apiTokenRevocations.insertOne({ _id: id, expiresAt });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
    return id;
  }

  #keyPair() {
    this.#keys ??= this.#loadOrCreate().catch((error: unknown) => {
      this.#keys = undefined;
      throw error;
    });
    return this.#keys;
  }

  async #loadOrCreate(): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
    let stored = await this.c.keys.findOne({ _id: KEY_ID });
    if (!stored) {
      const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
      const record = { _id: KEY_ID, privateJwk: { ...(await exportJWK(pair.privateKey)) }, publicJwk: { ...(await exportJWK(pair.publicKey)) } };
      try {
        await this.c.keys.insertOne(record);
        stored = record;
      } catch (error) {
        // Another process created the key first: use that one.
        if (!(error instanceof DuplicateKeyError)) throw error;
        stored = await this.c.keys.findOne({ _id: KEY_ID });
      }
    }
    if (!stored) throw new Error('the API token key could not be stored');
    return {
      privateKey: (await importJWK(stored.privateJwk as JWK, 'EdDSA')) as CryptoKey,
      publicKey: (await importJWK(stored.publicJwk as JWK, 'EdDSA')) as CryptoKey,
    };
  }
}
