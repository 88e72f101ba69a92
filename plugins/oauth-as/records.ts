import type { Store, StoreCollection } from '../../core/plugin/store.js';

/** What the hub keeps about a client it issued (operator or dynamic registration). */
export interface ClientRecord {
  _id: string;
  source: 'operator' | 'dynamic';
  secretHash?: string;
  registrationTokenHash?: string;
  metadata: ClientMetadata;
  issuedAt: number;
  /** A dynamic registration that has not obtained a token yet is deleted then. */
  expiresAt?: Date;
}

export interface ClientMetadata {
  redirect_uris: string[];
  token_endpoint_auth_method: 'none' | 'client_secret_post' | 'private_key_jwt';
  grant_types: string[];
  response_types: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  scope?: string;
  contacts?: string[];
  software_id?: string;
  software_version?: string;
  jwks?: { keys: Record<string, unknown>[] };
}

/** Keyed by the hash of the access token. */
export interface AccessTokenRecord {
  _id: string;
  clientId: string;
  resource: string;
  scope: string;
  familyId?: string;
  issuedAt: Date;
  expiresAt: Date;
}

/** A refresh-token family: one login's chain of rotating refresh tokens. */
export interface FamilyRecord {
  _id: string;
  clientId: string;
  resource: string;
  scope: string;
  /** Hash of the one refresh token that may be used next. */
  current: string;
  /** Hash of the token `current` replaced, and when: a retry within the grace window gets the same answer. */
  previous?: string;
  rotatedAt?: Date;
  /** Hash of the one token whose rotation was answered again: no other rotation can be. */
  retried?: string;
  /** Secret from which each rotation's new tokens are derived (so that a retry can be answered alike). */
  seed?: string;
  revoked?: boolean;
  issuedAt: Date;
  expiresAt: Date;
}

/** Every refresh token ever issued, keyed by hash, so that a retired one is recognised. */
export interface RefreshTokenRecord {
  _id: string;
  familyId: string;
  expiresAt: Date;
}

export interface CodeRecord {
  _id: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
  scope: string;
  expiresAt: Date;
  /** Set by the exchange that used the code, with the family it started. */
  used?: boolean;
  /** The code's own lifetime, kept when `expiresAt` is moved on by its use: a duplicate within it is refused, a later one is a replay. */
  validUntil?: Date;
  familyId?: string;
  /** Set once the tokens of that family were issued: a later exchange is a replay. */
  issued?: boolean;
  /** Set by an exchange of the same code after its tokens were issued: the family must not live. */
  replayed?: boolean;
}

/** Tokens of this client issued at or before `revokedAt` are withdrawn. */
export interface ClientRevocationRecord {
  _id: string;
  revokedAt: Date;
}

export interface ApiTokenRevocationRecord {
  _id: string;
  expiresAt: Date;
}

/** An API token as minted: what `hub-admin tokens list` shows (the token itself is never kept). */
export interface ApiTokenRecord {
  _id: string;
  label?: string;
  /** The base URL the token is for. */
  issuer: string;
  issuedAt: Date;
  expiresAt?: Date;
  /** The endpoints it opens (`hub`, server names); absent on tokens for every endpoint, and on those minted before tokens had resources. */
  resources?: string[];
  /** The servers it reaches through `/hub`; absent: all. */
  servers?: string[];
  /** When a request last carried it (written at most once a minute per hub process); absent: never used. */
  lastUsedAt?: Date;
}

/** The base URL the hub last served on with this store (`_id: 'issuer'`), so `hub-admin` mints for it. */
export interface ServedRecord {
  _id: string;
  baseUrl: string;
  at: Date;
}

/** An authorization request that was approved, until the request would have expired: one code per request. */
export interface DecisionRecord {
  /** The sealed request's id (`jti`). */
  _id: string;
  expiresAt: Date;
}

export interface SeenAssertionRecord {
  _id: string;
  expiresAt: Date;
}

export interface KeyRecord {
  _id: string;
  privateJwk: Record<string, unknown>;
  publicJwk: Record<string, unknown>;
}

export interface Collections {
  clients: StoreCollection<ClientRecord>;
  accessTokens: StoreCollection<AccessTokenRecord>;
  families: StoreCollection<FamilyRecord>;
  refreshTokens: StoreCollection<RefreshTokenRecord>;
  codes: StoreCollection<CodeRecord>;
  clientRevocations: StoreCollection<ClientRevocationRecord>;
  apiTokenRevocations: StoreCollection<ApiTokenRevocationRecord>;
  apiTokens: StoreCollection<ApiTokenRecord>;
  served: StoreCollection<ServedRecord>;
  decisions: StoreCollection<DecisionRecord>;
  seenAssertions: StoreCollection<SeenAssertionRecord>;
  keys: StoreCollection<KeyRecord>;
}

export function collections(store: Store): Collections {
  return {
    clients: store.collection('oauth-clients'),
    accessTokens: store.collection('oauth-access-tokens'),
    families: store.collection('oauth-refresh-families'),
    refreshTokens: store.collection('oauth-refresh-tokens'),
    codes: store.collection('oauth-codes'),
    clientRevocations: store.collection('oauth-client-revocations'),
    apiTokenRevocations: store.collection('api-token-revocations'),
    apiTokens: store.collection('api-tokens'),
    served: store.collection('oauth-served'),
    decisions: store.collection('oauth-decisions'),
    seenAssertions: store.collection('oauth-seen-assertions'),
    keys: store.collection('oauth-keys'),
  };
}

/** TTL indexes, so that nothing expired is ever found and the files stay small. */
export async function createIndexes(c: Collections): Promise<void> {
  await Promise.all([
    expiryIndex(c.accessTokens),
    c.accessTokens.createIndex('familyId'),
    c.accessTokens.createIndex('clientId'),
    expiryIndex(c.clients),
    c.clients.createIndex('source'),
    expiryIndex(c.families),
    expiryIndex(c.refreshTokens),
    expiryIndex(c.codes),
    expiryIndex(c.apiTokenRevocations),
    expiryIndex(c.apiTokens),
    expiryIndex(c.decisions),
    expiryIndex(c.seenAssertions),
  ]);
}

/** A record is gone once its `expiresAt` has passed. */
export function expiryIndex(collection: StoreCollection<{ _id: string; expiresAt?: Date }>): Promise<void> {
  return collection.createIndex('expiresAt', { expireAfterSeconds: 0 });
}
