/** A stable error code, `HUB_ERR_` and upper-case words: what callers and tests branch on. */
export type HubErrorCode = `HUB_ERR_${string}`;

/**
 * The kernel's error codes, in one list. A code keeps its meaning once published; the
 * message beside it is for people and may change. Plugins keep their own codes
 * (`HUB_ERR_<PLUGIN>_...`) beside their errors and list them in their READMEs, and may
 * throw these where they mean the same thing (a child type's closed connection).
 */
export const HUB_ERROR_CODES = {
  // Start-up: thrown as `StartupError`, printed as one line by the CLIs.
  /** A start-up problem that no more specific code names. */
  STARTUP: 'HUB_ERR_STARTUP',
  /** An environment setting (PORT, BASE_URL, IDLE_TIMEOUT_MINUTES, ...) does not parse. */
  SETTING_INVALID: 'HUB_ERR_SETTING_INVALID',
  /** The config file exists but cannot be read, or is gone at a reload. */
  CONFIG_UNREADABLE: 'HUB_ERR_CONFIG_UNREADABLE',
  /** The config is not JSON, has a key of the wrong shape, names an unset `${VAR}` or a server name the hub refuses. */
  CONFIG_INVALID: 'HUB_ERR_CONFIG_INVALID',
  /** DATA_PATH is not a folder the hub can read and write. */
  DATA_PATH: 'HUB_ERR_DATA_PATH',
  /** A secret file under DATA_PATH is open to other users: the operator decides. */
  SECRETS_EXPOSED: 'HUB_ERR_SECRETS_EXPOSED',
  /** A secret's `<NAME>_FILE` cannot be read, is empty or too large, or is set together with `<NAME>`. */
  SECRET_FILE: 'HUB_ERR_SECRET_FILE',
  /** A plugin named in the config is neither built in nor found as a file or package. */
  PLUGIN_NOT_FOUND: 'HUB_ERR_PLUGIN_NOT_FOUND',
  /** A module does not export a hub plugin, or its name is already taken. */
  PLUGIN_INVALID: 'HUB_ERR_PLUGIN_INVALID',
  /** A plugin's module threw while it was imported (the `cause`). */
  PLUGIN_LOAD_FAILED: 'HUB_ERR_PLUGIN_LOAD_FAILED',
  /** A plugin depends on one that is disabled or unknown, or dependencies form a cycle. */
  PLUGIN_DEPENDENCY: 'HUB_ERR_PLUGIN_DEPENDENCY',
  /** A plugin's options do not match its schema. */
  PLUGIN_OPTIONS_INVALID: 'HUB_ERR_PLUGIN_OPTIONS_INVALID',
  /** Two plugins register the same name (a meta-tool, a child type, a revision, an admin command). */
  REGISTERED_TWICE: 'HUB_ERR_REGISTERED_TWICE',
  /** Two plugins provide a service only one may provide (the request authenticator, the upstream credentials). */
  SLOT_TAKEN: 'HUB_ERR_SLOT_TAKEN',
  /** No plugin authenticates MCP requests and HOST is not a loopback address. */
  UNAUTHENTICATED_HOST: 'HUB_ERR_UNAUTHENTICATED_HOST',
  /** The HTTP server cannot listen (port in use, no privilege, no such address). */
  LISTEN: 'HUB_ERR_LISTEN',
  /** `hub-stdio` with no MCP revision plugin enabled. */
  NO_REVISION: 'HUB_ERR_NO_REVISION',
  /** A command line a CLI does not take (`UsageError`, whose message then carries the usage). */
  USAGE: 'HUB_ERR_USAGE',
  /** The store cannot be opened (the embedded store's files, hub-admin finding none). */
  STORE_UNAVAILABLE: 'HUB_ERR_STORE_UNAVAILABLE',

  // Children.
  /** A server name added twice to the children. */
  SERVER_EXISTS: 'HUB_ERR_SERVER_EXISTS',
  /** A server a plugin asked for is not configured (a reload removed it). */
  SERVER_UNKNOWN: 'HUB_ERR_SERVER_UNKNOWN',
  /** A server with `hub: false` was asked for through `/hub`: it is served on its own endpoint only. */
  SERVER_HIDDEN: 'HUB_ERR_SERVER_HIDDEN',
  /** A server's child type is not registered (its plugin is disabled). */
  CHILD_TYPE_UNKNOWN: 'HUB_ERR_CHILD_TYPE_UNKNOWN',
  /** An in-process server was configured but nothing provides it. */
  IN_PROCESS_UNKNOWN: 'HUB_ERR_IN_PROCESS_UNKNOWN',
  /** A child ended before its MCP handshake (`ChildEndedError`): retrying at once would end the same way. */
  CHILD_ENDED: 'HUB_ERR_CHILD_ENDED',
  /** A message was sent on a child connection that is already closed. */
  CONNECTION_CLOSED: 'HUB_ERR_CONNECTION_CLOSED',
  /** A remote child's answer is larger than a child may send (`AnswerTooLargeError`). */
  ANSWER_TOO_LARGE: 'HUB_ERR_ANSWER_TOO_LARGE',
  /** Only an operator login at the upstream can fix a remote child's credentials (`LoginRequiredError`). */
  LOGIN_REQUIRED: 'HUB_ERR_LOGIN_REQUIRED',
  /** A server's start failed because the child ended before its handshake; the `cause` says how. */
  CHILD_START_FAILED: 'HUB_ERR_CHILD_START_FAILED',
  /** A server did not come up within its wake budget; the message carries the last reason. */
  CHILD_START_TIMEOUT: 'HUB_ERR_CHILD_START_TIMEOUT',
  /** A start attempt had no answer before the wake budget ran out. */
  CHILD_NO_ANSWER: 'HUB_ERR_CHILD_NO_ANSWER',
  /** A start was ended because the server was put to sleep or stopped meanwhile. */
  CHILD_START_CANCELLED: 'HUB_ERR_CHILD_START_CANCELLED',
  /** The child's connection closed while it was starting. */
  CHILD_CLOSED: 'HUB_ERR_CHILD_CLOSED',
  /** A server that needs an operator login at its upstream before it can start. */
  CHILD_UNAUTHORIZED: 'HUB_ERR_CHILD_UNAUTHORIZED',
  /** The connection to a server was gone when a call was about to use it. */
  CHILD_DISCONNECTED: 'HUB_ERR_CHILD_DISCONNECTED',
  /** A connection pinned to one revision (to learn what the child shows a client of it) cannot be made that way. */
  CHILD_REVISION_UNAVAILABLE: 'HUB_ERR_CHILD_REVISION_UNAVAILABLE',
  /** An always-running server was asked to sleep. */
  CHILD_ALWAYS_RUNNING: 'HUB_ERR_CHILD_ALWAYS_RUNNING',
  /** A status change the lifecycle table does not allow: a bug in the hub. */
  CHILD_TRANSITION: 'HUB_ERR_CHILD_TRANSITION',
  /** A tool snapshot on disk is not one of this server (ignored and logged). */
  SNAPSHOT_INVALID: 'HUB_ERR_SNAPSHOT_INVALID',

  // Fetching on someone else's say-so (`guardedFetch`).
  /** The URL or the address it resolves to is not allowed (`BlockedRequestError`). */
  FETCH_BLOCKED: 'HUB_ERR_FETCH_BLOCKED',
  /** The answer is too large or not complete in time (`FetchLimitError`). */
  FETCH_LIMIT: 'HUB_ERR_FETCH_LIMIT',

  // The store.
  /** An insert or update would break a unique index (`DuplicateKeyError`). */
  DUPLICATE_KEY: 'HUB_ERR_DUPLICATE_KEY',
  /** A collection name that is not a safe file and collection name. */
  STORE_NAME_INVALID: 'HUB_ERR_STORE_NAME_INVALID',

  // MCP requests.
  /** A request body the MCP routes refuse (empty, not JSON, too deep, a prototype key). */
  JSON_RPC_BODY: 'HUB_ERR_JSON_RPC_BODY',
  /** The caller cancelled its call (the reason its forwarding was ended with). */
  CALL_CANCELLED: 'HUB_ERR_CALL_CANCELLED',

  // The operator's JSON API (the console's `/console/api`).
  /** The request carries no live operator session (or carries a bearer token, which the operator API never takes). */
  OPERATOR_SESSION_REQUIRED: 'HUB_ERR_OPERATOR_SESSION_REQUIRED',
  /** A state-changing request came from another site (`Origin`, `Sec-Fetch-Site`). */
  OPERATOR_FOREIGN_REQUEST: 'HUB_ERR_OPERATOR_FOREIGN_REQUEST',
  /** A state-changing request without the page's CSRF token (`X-CSRF-Token`), or with a stale one. */
  OPERATOR_CSRF_INVALID: 'HUB_ERR_OPERATOR_CSRF_INVALID',
  /** A request body or parameter the operator API's schema refuses. */
  OPERATOR_REQUEST_INVALID: 'HUB_ERR_OPERATOR_REQUEST_INVALID',

  /** Something the hub itself got wrong: a bug to report. */
  INTERNAL: 'HUB_ERR_INTERNAL',
} as const satisfies Record<string, HubErrorCode>;

/**
 * The hub's one error family, as Fastify's `FST_ERR_*`: a stable `code` to branch on, the
 * underlying `cause` kept, and a message written for people that may change. Text for a
 * client or an operator is made from it at the edge (a JSON-RPC error, a tool error, a log
 * line, a start-up line).
 */
export class HubError extends Error {
  override readonly name: string = 'HubError';

  constructor(
    readonly code: HubErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * An error that stops the hub before it listens. Its message is one line meant for the
 * operator; the CLI prints it as is and exits non-zero, without a stack trace.
 */
export class StartupError extends HubError {
  override readonly name = 'StartupError';
  /** Every problem found, `message` (the first) first: a config checker names them all, not just the one it stopped at. */
  readonly problems: string[];

  constructor(message: string, options?: { cause?: unknown; code?: HubErrorCode; problems?: string[] }) {
    super(options?.code ?? HUB_ERROR_CODES.STARTUP, message, options);
    this.problems = options?.problems !== undefined && options.problems.length > 0 ? options.problems : [message];
  }
}

/** What a caught value says: an error's message, anything else as a string (a plugin or a library may throw anything). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The code of a hub error, or undefined for any other value: for wrapping without losing it. */
export function hubErrorCode(error: unknown): HubErrorCode | undefined {
  return error instanceof HubError ? error.code : undefined;
}
