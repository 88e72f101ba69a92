/**
 * `mcp-switchyard/plugin/pages`: what a plugin that serves pages to the hub's operators
 * needs: the page frame, the operator's login, and the registry of operator pages.
 */
export { escapeHtml, pageWhenRefused, sendPage, tooManyAttemptsPage, type PageOptions } from '../operator/page.js';
export type { OperatorLogin } from '../operator/login.js';
export type { LoginAttempt } from '../operator/login-throttle.js';
export type { OperatorPage } from '../operator/pages.js';
