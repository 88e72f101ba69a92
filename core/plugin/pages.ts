/**
 * `mcp-switchyard/plugin/pages`: what a plugin that serves pages to the hub's operators
 * needs: the operator web service (`hub.operator`: login, session, CSRF, the page frame,
 * prefix-aware URLs), the page helpers, and the registry of operator pages.
 */
export type { OperatorService, PasswordCheck } from '../operator/service.js';
export { escapeHtml, pageWhenRefused, type PageOptions } from '../operator/page.js';
export type { OperatorPage } from '../operator/pages.js';
export type { AccessAdmin, ApiTokenListing, ApiTokenRequest, MintedApiToken, OAuthClientListing } from '../operator/api-token-admin.js';
export { ownFormParser } from '../operator/form-parser.js';
export { sendApiError } from '../operator/web.js';
