/**
 * What an operator UI (the console's access view) does with the hub's API tokens and OAuth
 * clients, as `hub-admin tokens` and `hub-admin clients` do: the plugin that issues them
 * (oauth-as) provides it (`hub.accessAdmin`), so a page reaches the same logic without
 * importing that plugin. A token's value is in `mint`'s answer only: nothing lists or logs it.
 */
export interface AccessAdmin {
  /** The API tokens minted and not yet expired, oldest first, revoked ones marked. */
  listTokens(): Promise<ApiTokenListing[]>;
  /** Mints a token for this hub's base URL; `refused` says in an operator's words why not (a server unknown, a reach that makes no sense). */
  mintToken(request: ApiTokenRequest): Promise<{ minted: MintedApiToken } | { refused: string }>;
  /** Revokes a token by its id: the id, or undefined when no such token was minted with this store. */
  revokeToken(id: string): Promise<string | undefined>;
  /** The OAuth clients registered (by an operator, or by themselves), oldest first. */
  listClients(): Promise<OAuthClientListing[]>;
  /** Withdraws every token the client holds (as `hub-admin clients revoke`); it may sign in again. False when no such client is registered. */
  revokeClient(clientId: string): Promise<boolean>;
}

/** What a token opens: `all` every MCP endpoint, or `resources` (`hub` for `/hub`, a server's name for `/<name>/mcp`); `servers` limits a `/hub` token to those servers' tools. */
export interface ApiTokenRequest {
  label?: string;
  /** Days until it expires; absent: no expiry. */
  expiresInDays?: number;
  all?: boolean;
  resources?: readonly string[];
  servers?: readonly string[];
}

export interface ApiTokenListing {
  id: string;
  label?: string;
  /** The base URL the token is for. */
  issuer: string;
  issuedAt: Date;
  expiresAt?: Date;
  /** When a request last carried it (recorded at most once a minute); absent: never used. */
  lastUsedAt?: Date;
  /** The endpoints it opens; absent: every one. */
  resources?: readonly string[];
  /** The servers it reaches through `/hub`; absent: all. */
  servers?: readonly string[];
  revoked: boolean;
}

export interface MintedApiToken {
  /** The token itself: shown once, never stored, never logged. */
  token: string;
  id: string;
  issuer: string;
  expiresAt?: Date;
  /** The endpoints' URLs it opens, `/hub` first when it opens `/hub`. */
  endpoints: string[];
  /** What it opens, in words (`/alpha/mcp only`). */
  opens: string;
}

export interface OAuthClientListing {
  clientId: string;
  source: 'operator' | 'dynamic';
  name?: string;
  redirectUris: string[];
  issuedAt: Date;
  /** When every token it held until then was withdrawn (`revokeClient`); absent: never. It may sign in again after. */
  tokensRevokedAt?: Date;
}
