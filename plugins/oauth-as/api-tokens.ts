import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { errors as joseErrors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { OAUTH_ERROR_CODES } from './errors.js';
import type { Collections } from './records.js';
import { HUB_RESOURCE, listApiTokens, type ListedToken, type TokenReach } from './api-token-list.js';
import { revokeApiToken } from './revocations.js';
import { storedKey } from './stored-key.js';
import { HubError } from '../../core/plugin/index.js';
import { DuplicateKeyError } from '../../core/plugin/store.js';

const KEY_ID = 'api-token-signing';
/** Tokens whose signature this process has checked; a client sends the same one with every request. */
const VERIFIED_TOKENS = 1000;
/**
 * How long a token's "not revoked" answer is reused: the store's staleness bound (the
 * embedded store's MAX_STALENESS_MS), which a bounded-staleness lookup may already be as
 * old as, so a revocation by another process is honoured as promptly as before.
 */
const REVOCATION_RECHECK_MS = 1000;
/** A token's last use is written at most this often per process: a busy client costs no store write per request. */
const LAST_USE_EVERY_MS = 60_000;
/**
 * Revocations made in this process, by any `ApiTokens` (the plugin's and `hub-admin`'s
 * may be two): a "not revoked" answer remembered under an older count is looked up
 * again, so a revocation made here takes effect on the very next request.
 */
let revocationsHere = 0;

export { HUB_RESOURCE, type ListedToken, type TokenReach } from './api-token-list.js';

export interface MintedToken {
  token: string;
  id: string;
  /** The base URL the token is for: only a hub serving there accepts it. */
  issuer: string;
  expiresAt?: Date;
}

/** A verified token, or why it is not valid, in words safe to send to anyone holding it. */
export type ApiTokenCheck =
  | {
      ok: true;
      id: string;
      label?: string;
      expiresAt?: number;
      /** The resource URLs the token is for (RFC 8707 audiences); absent: every MCP endpoint of the hub, as tokens minted before resources existed. */
      resources?: readonly string[];
      /** The servers a `/hub` caller with this token may reach; absent: all. */
      servers?: readonly string[];
    }
  | { ok: false; reason: string };
type VerifiedToken = Extract<ApiTokenCheck, { ok: true }>;
/** A token's last "not revoked" answer: when the lookup started and under which count of this process's revocations. */
interface NotRevoked {
  at: number;
  revocations: number;
}

/** The URL of the endpoint a resource name stands for, under `issuer`. */
export function resourceUrl(issuer: string, name: string): string {
  return name === HUB_RESOURCE ? `${issuer}/hub` : `${issuer}/${name}/mcp`;
}

/**
 * Operator-minted API tokens: EdDSA-signed JWTs whose key lives in the store (so hub
 * replicas share it) and is published nowhere, so only the hub can verify them.
 */
export class ApiTokens {
  #keys: Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> | undefined;
  /**
   * A token's signature and claims, once checked, hold for its lifetime: the check (an
   * EdDSA verification, the largest cost of an MCP request) is not repeated for every
   * request. The revocation lookup and the expiry are still checked on each.
   */
  readonly #verified = new LRUCache<string, VerifiedToken>({ max: VERIFIED_TOKENS });
  /**
   * The revocation lookup's last answer per verified token: the lookup (through the lazy
   * and the embedded store, or a round trip to MongoDB) was a chain of promises on every
   * request; within REVOCATION_RECHECK_MS and with no revocation made here since, its
   * "not revoked" holds.
   */
  readonly #notRevoked = new WeakMap<VerifiedToken, NotRevoked>();
  /** When this process last wrote each token's `lastUsedAt`. */
  readonly #lastUseWritten = new LRUCache<string, number>({ max: VERIFIED_TOKENS });

  readonly #issuer: () => string;

  constructor(
    private readonly c: Collections,
    /** The base URL this hub serves, or how to read it (it may be known only once the hub listens). */
    issuer: string | (() => string),
    /** The time in ms since the epoch; tests pass their own to cross an expiry without waiting. */
    private readonly now: () => number = Date.now,
  ) {
    this.#issuer = typeof issuer === 'string' ? () => issuer : issuer;
  }

  get issuer(): string {
    return this.#issuer();
  }

  /** Notes the base URL this hub serves on, so that `hub-admin` mints tokens it accepts. */
  async recordServed(): Promise<void> {
    const served = { baseUrl: this.issuer, at: new Date() };
    if (!(await this.c.served.findOneAndUpdate({ _id: 'issuer' }, { $set: served }))) {
      await this.c.served.insertOne({ _id: 'issuer', ...served }).catch((error: unknown) => {
        if (!(error instanceof DuplicateKeyError)) throw error;
      });
    }
  }

  /** The base URL a hub last served on with this store, if one ever did. */
  async servedBaseUrl(): Promise<string | undefined> {
    return (await this.c.served.findOne({ _id: 'issuer' }))?.baseUrl;
  }

  get audience(): string {
    return `${this.issuer}#api`;
  }

  /**
   * Mints a token for `issuer` (default: this hub's base URL) and records it for `list`.
   * A token bound to resources names their URLs as audiences beside the hub's own
   * (RFC 8707, as an OAuth access token is bound to its resource); one limited to servers
   * carries their names. Both are signed, so they hold without a lookup.
   */
  async mint(label: string | undefined, expiresInSeconds: number | undefined, { issuer = this.issuer, resources, servers }: TokenReach & { issuer?: string } = {}): Promise<MintedToken> {
    const { privateKey } = await this.#keyPair();
    const id = randomUUID();
    const reach = { ...(resources && { resources: [...resources] }), ...(servers && { servers: [...servers] }) };
    // One reading of the clock, in the whole seconds a JWT carries: the expiry recorded and
    // printed is the token's own `exp`, exactly `expiresInSeconds` after its `iat`.
    const issuedAt = Math.floor(this.now() / 1000);
    const jwt = new SignJWT({ ...(label ? { label } : {}), ...(reach.servers && { servers: reach.servers }) })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'hub-api+jwt' })
      .setIssuer(issuer)
      .setAudience([`${issuer}#api`, ...(resources ?? []).map((name) => resourceUrl(issuer, name))])
      .setSubject('hub')
      .setJti(id)
      .setIssuedAt(issuedAt);
    const expiresAt = expiresInSeconds === undefined ? undefined : new Date((issuedAt + expiresInSeconds) * 1000);
    if (expiresAt) jwt.setExpirationTime(expiresAt.getTime() / 1000);
    const token = await jwt.sign(privateKey);
    await this.c.apiTokens.insertOne({ _id: id, ...(label ? { label } : {}), issuer, issuedAt: new Date(), ...(expiresAt ? { expiresAt } : {}), ...reach });
    return { token, id, issuer, ...(expiresAt ? { expiresAt } : {}) };
  }

  /** The tokens minted and not yet expired, oldest first, revoked ones marked. */
  list(): Promise<ListedToken[]> {
    return listApiTokens(this.c);
  }

  /**
   * The token's id and expiry when it verifies and is not revoked; otherwise why not. The
   * reason names only what the holder could read from the token itself (its issuer, its
   * expiry) or the fact of a revocation, never a key or another token.
   */
  async verify(token: string): Promise<ApiTokenCheck> {
    const verified = this.#stillVerified(token) ?? (await this.#verifySignature(token));
    if (!verified.ok) return verified;
    const now = this.now();
    if (this.#knownNotRevoked(verified, now)) return verified;
    // Almost always a miss: as fresh as the store's staleness bound (README).
    const revocations = revocationsHere;
    if (await this.c.apiTokenRevocations.findOne({ _id: verified.id }, { staleness: 'bounded' })) return { ok: false, reason: `API token ${verified.id} was revoked` };
    this.#notRevoked.set(verified, { at: now, revocations });
    return verified;
  }

  /**
   * Notes that token `id` was accepted on a request (the listing's "last used"), at most once
   * a minute per token. Not awaited: a request never waits on it, and a failed write only
   * leaves "last used" older (it is tried again on the next request).
   */
  noteUse(id: string): void {
    const now = this.now();
    const written = this.#lastUseWritten.get(id);
    if (written !== undefined && now - written < LAST_USE_EVERY_MS) return;
    this.#lastUseWritten.set(id, now);
    this.c.apiTokens.findOneAndUpdate({ _id: id }, { $set: { lastUsedAt: new Date(now) } }).catch(() => this.#lastUseWritten.delete(id));
  }

  /**
   * `verify`'s answer when it needs no wait (the token checked already, not expired, and its
   * "not revoked" answer still fresh): the bearer check of most requests, without a promise.
   * Undefined when `verify` has to be asked.
   */
  verifiedNow(token: string): ApiTokenCheck | undefined {
    const verified = this.#stillVerified(token);
    return verified !== undefined && this.#knownNotRevoked(verified, this.now()) ? verified : undefined;
  }

  #knownNotRevoked(verified: VerifiedToken, now: number): boolean {
    const known = this.#notRevoked.get(verified);
    return known !== undefined && known.revocations === revocationsHere && now - known.at < REVOCATION_RECHECK_MS;
  }

  /** A checked token not yet expired (as jose counts it: expired from its `exp` second on); an expired one is checked again, for jose's reason. */
  #stillVerified(token: string): VerifiedToken | undefined {
    const verified = this.#verified.get(token);
    if (verified?.expiresAt === undefined || verified.expiresAt > Math.floor(this.now() / 1000)) return verified;
    this.#verified.delete(token);
    return undefined;
  }

  async #verifySignature(token: string): Promise<ApiTokenCheck> {
    const { publicKey } = await this.#keyPair();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, publicKey, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: ['EdDSA'],
        typ: 'hub-api+jwt',
        requiredClaims: ['jti'],
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      return { ok: false, reason: this.#whyNot(token, error) };
    }
    // A token minted before resources existed has the hub's own audience alone: every endpoint, every server.
    const resources = typeof payload.aud === 'string' ? [] : (payload.aud ?? []).filter((audience) => audience !== this.audience);
    const servers = Array.isArray(payload.servers) ? payload.servers.filter((name): name is string => typeof name === 'string') : undefined;
    const verified: VerifiedToken = {
      ok: true,
      id: payload.jti ?? '',
      ...(typeof payload.label === 'string' ? { label: payload.label } : {}),
      ...(payload.exp ? { expiresAt: payload.exp } : {}),
      ...(resources.length > 0 && { resources }),
      ...(servers && { servers }),
    };
    // A token that becomes valid only later (none is minted so) is checked every time.
    if (payload.nbf === undefined) this.#verified.set(token, verified);
    return verified;
  }

  #whyNot(token: string, error: unknown): string {
    if (error instanceof joseErrors.JWTExpired) return `the API token expired at ${new Date((error.payload.exp ?? 0) * 1000).toISOString()}`;
    if (error instanceof joseErrors.JWTClaimValidationFailed && (error.claim === 'iss' || error.claim === 'aud')) {
      return `the API token is for ${String(error.payload.iss)}, and this hub serves ${this.issuer} (mint tokens with hub-admin's BASE_URL set as the hub's)`;
    }
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      return "the API token was not signed by this hub's key (minted with another DATA_PATH or MONGODB_URL?)";
    }
    return token.split('.').length === 3 ? 'the token is not an API token of this hub' : 'the token is malformed';
  }

  /** Revokes by token or by id; returns the id, or undefined when no such token was minted with this store. */
  async revoke(tokenOrId: string): Promise<string | undefined> {
    try {
      return await revokeApiToken(this.c, tokenOrId);
    } finally {
      revocationsHere += 1;
    }
  }

  #keyPair() {
    this.#keys ??= this.#loadOrCreate().catch((error: unknown) => {
      this.#keys = undefined;
      throw error;
    });
    return this.#keys;
  }

  async #loadOrCreate(): Promise<{ privateKey: CryptoKey; publicKey: CryptoKey }> {
    const stored = await storedKey(this.c, KEY_ID, async () => {
      const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
      return { privateJwk: await exportJWK(pair.privateKey), publicJwk: await exportJWK(pair.publicKey) };
    });
    if (!stored) throw new HubError(OAUTH_ERROR_CODES.API_TOKEN_KEY, 'the API token key could not be stored');
    return {
      privateKey: (await importJWK(stored.privateJwk as JWK, 'EdDSA')) as CryptoKey,
      publicKey: (await importJWK(stored.publicJwk as JWK, 'EdDSA')) as CryptoKey,
    };
  }
}
