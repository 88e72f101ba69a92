import { HubError, type HubErrorCode } from '../../core/plugin/index.js';

/**
 * The codes of oauth-as's errors (`HubError`s), listed in the README. An `OAuthError`'s
 * code follows from the OAuth error it answers with (RFC 6749 5.2, RFC 7591 3.2.2,
 * RFC 8707, RFC 6750): `invalid_grant` is `HUB_ERR_OAUTH_INVALID_GRANT`.
 */
export const OAUTH_ERROR_CODES = {
  invalid_request: 'HUB_ERR_OAUTH_INVALID_REQUEST',
  invalid_client: 'HUB_ERR_OAUTH_INVALID_CLIENT',
  invalid_grant: 'HUB_ERR_OAUTH_INVALID_GRANT',
  unauthorized_client: 'HUB_ERR_OAUTH_UNAUTHORIZED_CLIENT',
  unsupported_grant_type: 'HUB_ERR_OAUTH_UNSUPPORTED_GRANT_TYPE',
  invalid_target: 'HUB_ERR_OAUTH_INVALID_TARGET',
  invalid_client_metadata: 'HUB_ERR_OAUTH_INVALID_CLIENT_METADATA',
  invalid_redirect_uri: 'HUB_ERR_OAUTH_INVALID_REDIRECT_URI',
  invalid_token: 'HUB_ERR_OAUTH_INVALID_TOKEN',
  /** A client ID metadata document that cannot be fetched or is not acceptable (`MetadataDocumentError`). */
  METADATA_DOCUMENT: 'HUB_ERR_OAUTH_METADATA_DOCUMENT',
  /** The API-token signing key could not be stored. */
  API_TOKEN_KEY: 'HUB_ERR_OAUTH_API_TOKEN_KEY',
  /** The key that seals pending authorization requests could not be stored. */
  PENDING_KEY: 'HUB_ERR_OAUTH_PENDING_KEY',
} as const satisfies Record<string, HubErrorCode>;

/** The OAuth error codes the hub answers with. */
export type OAuthErrorName = Exclude<keyof typeof OAUTH_ERROR_CODES, 'METADATA_DOCUMENT' | 'API_TOKEN_KEY' | 'PENDING_KEY'>;

/** An OAuth error response (RFC 6749 section 5.2 shape) with its HTTP status. */
export class OAuthError extends HubError {
  override readonly name = 'OAuthError';

  constructor(
    /** The OAuth error code sent to the client, as `error`. */
    readonly oauthError: OAuthErrorName,
    readonly description: string,
    readonly status = 400,
    options?: { cause?: unknown },
  ) {
    super(OAUTH_ERROR_CODES[oauthError], description, options);
  }

  get body(): { error: string; error_description: string } {
    return { error: this.oauthError, error_description: this.description };
  }
}
