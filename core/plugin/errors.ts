/**
 * `mcp-switchyard/plugin/errors`: errors with their codes, and what a plugin's own command
 * line needs (the map server's). The lightest entry: it loads no part of the kernel, so a
 * plugin's standalone program (or code shared with one) can use it without the gateway.
 */
export { HUB_ERROR_CODES, errorMessage, HubError, hubErrorCode, StartupError, type HubErrorCode } from '../errors.js';
export { firstSchemaProblem, pointerToPath } from '../config/schema-errors.js';
export { runCli, wantsHelp } from '../cli/run.js';
export { HUB_VERSION } from '../version.js';
