/**
 * `mcp-switchyard/plugin/auth`: what a plugin that authenticates, keeps secrets or fetches
 * on someone else's say-so needs.
 */
export { CALLER_SERVERS_KEY, type RequestAuthenticator } from '../http/authenticator.js';
export { addressKey, fromThisMachine } from '../limits/address.js';
export { BlockedRequestError, FetchLimitError, guardedFetch, type GuardedFetchOptions } from '../net/guarded-fetch.js';
export { makePrivateFolder, PRIVATE_FILE_MODE } from '../store/private-files.js';
export { derivedSecret, hashSecret, newSecret, secretMatches } from '../secrets.js';
export { withSecretFiles } from '../config/secret-files.js';
