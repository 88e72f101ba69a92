import type { HubErrorCode } from '../../core/plugin/index.js';

/**
 * The codes of upstream-oauth's errors (`HubError`s), listed in the README. A server
 * that needs an operator login fails with the kernel's `LoginRequiredError`
 * (`HUB_ERR_LOGIN_REQUIRED`).
 */
export const UPSTREAM_OAUTH_ERROR_CODES = {
  /** A login was asked for a server that uses client_credentials. */
  NO_LOGIN_NEEDED: 'HUB_ERR_UPSTREAM_OAUTH_NO_LOGIN_NEEDED',
  /** An operator login did not complete: no authorization started, no code, or the exchange did not authorize. */
  LOGIN_FAILED: 'HUB_ERR_UPSTREAM_OAUTH_LOGIN_FAILED',
  /** Dynamic registration (mode dcr) is not offered or failed. */
  REGISTRATION_FAILED: 'HUB_ERR_UPSTREAM_OAUTH_REGISTRATION_FAILED',
  /** The hub has no client identity at the upstream yet. */
  NO_CLIENT: 'HUB_ERR_UPSTREAM_OAUTH_NO_CLIENT',
  /** An upstream endpoint (revocation, registration management) refused a request. */
  ENDPOINT_REFUSED: 'HUB_ERR_UPSTREAM_OAUTH_ENDPOINT_REFUSED',
  /** Another hub process held the upstream's credentials longer than the lease allows. */
  BUSY: 'HUB_ERR_UPSTREAM_OAUTH_BUSY',
  /** `<DATA_PATH>/upstream-key.pem` is not an Ed25519 private key. */
  KEY_INVALID: 'HUB_ERR_UPSTREAM_OAUTH_KEY_INVALID',
} as const satisfies Record<string, HubErrorCode>;
