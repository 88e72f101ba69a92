import type { HubErrorCode } from '../../core/plugin/index.js';

/** The codes of the console API's errors (`/console/api`), listed in the README. */
export const CONSOLE_ERROR_CODES = {
  /** The config file changed since the page read it: nothing was written; the answer carries the difference. */
  CONFLICT: 'HUB_ERR_CONSOLE_CONFLICT',
  /** The config file cannot be written (read-only file system, a ConfigMap, an embedded config): the answer carries the JSON to paste. */
  READ_ONLY: 'HUB_ERR_CONSOLE_READ_ONLY',
  /** The entry is refused by the checker the hub reloads with (`hub check`'s): nothing was written; the answer names the key, and lists every field error of the entry in `errors`. */
  ENTRY_INVALID: 'HUB_ERR_CONSOLE_ENTRY_INVALID',
  /** No server of that name is in the config file. */
  SERVER_NOT_FOUND: 'HUB_ERR_CONSOLE_SERVER_NOT_FOUND',
  /** The playground's call did not reach an answer: the server could not start, or answered with a protocol error (the message says which). */
  CALL_FAILED: 'HUB_ERR_CONSOLE_CALL_FAILED',
  /** The server offers no such tool to callers (unknown, or filtered out). */
  TOOL_NOT_FOUND: 'HUB_ERR_CONSOLE_TOOL_NOT_FOUND',
  /** The config file as it is now does not parse, so no entry of it can be edited from the console. */
  CONFIG_UNREADABLE: 'HUB_ERR_CONSOLE_CONFIG_UNREADABLE',
  /** The server's status does not allow that action now (sleep a sleeping server, wake an always-running one). */
  ACTION_REFUSED: 'HUB_ERR_CONSOLE_ACTION_REFUSED',
  /** A wake or restart did not bring the server up: the message says why. */
  ACTION_FAILED: 'HUB_ERR_CONSOLE_ACTION_FAILED',
  /** A new entry (added, or a copy) names a server the file has already: nothing was written. */
  NAME_TAKEN: 'HUB_ERR_CONSOLE_NAME_TAKEN',
  /** API tokens cannot be managed here: no plugin issues them (oauth-as is off). */
  TOKENS_UNAVAILABLE: 'HUB_ERR_CONSOLE_TOKENS_UNAVAILABLE',
  /** A token to mint was refused (a server unknown, nothing asked for, an expiry that is not a positive number of days): nothing was minted. */
  TOKEN_REFUSED: 'HUB_ERR_CONSOLE_TOKEN_REFUSED',
  /** No API token of that id was minted with the hub's store. */
  TOKEN_NOT_FOUND: 'HUB_ERR_CONSOLE_TOKEN_NOT_FOUND',
  /** No OAuth client of that id is registered with the hub. */
  CLIENT_NOT_FOUND: 'HUB_ERR_CONSOLE_CLIENT_NOT_FOUND',
  /** This operator session has as many call streams open as it may (`STREAMS_PER_SESSION`). */
  TOO_MANY_STREAMS: 'HUB_ERR_CONSOLE_TOO_MANY_STREAMS',
  /** The console keeps no calls (`callsKept: 0`): there is nothing to stream. */
  CALLS_OFF: 'HUB_ERR_CONSOLE_CALLS_OFF',
} as const satisfies Record<string, HubErrorCode>;
