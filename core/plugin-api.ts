/**
 * The plugin surface: everything a hub plugin may use, published as `mcp-switchyard/plugin`.
 * The built-in plugins import the kernel through this file only, exactly as a third party
 * imports the package (a test holds them to it); what is not here is the kernel's own.
 */

// A plugin, and the hub it is handed.
export { definePlugin, type HubPlugin } from './plugin.js';
export type { AdminCommand, Hub, MetaTool, MetaToolContext, RequestAuthenticator } from './hub.js';
export { HUB_ERROR_CODES, HubError, hubErrorCode, StartupError, type HubErrorCode } from './errors.js';
export { HUB_VERSION } from './version.js';
export { runCli, wantsHelp } from './cli/run.js';
export { firstSchemaProblem, pointerToPath } from './config/schema-errors.js';
export type { ServerEntry } from './config/schema.js';

// Child types: how to reach a kind of server.
export type { Child, ChildStatus } from './children/child.js';
export type { ChildObserver, ChildStartEvent, StartReason } from './children/child-observer.js';
export { CHILD_STATUSES, type ChildTransition } from './children/child-states.js';
export { ChildEndedError, type ChildConnection, type ChildType, type ConnectContext, type PlainToolCall } from './children/child-type.js';
export { connectClient, type ConnectClientOptions } from './children/connect-client.js';
export { readMessages } from './children/read-messages.js';
export { StderrLog, type StderrLimits, type StderrMemory } from './children/stderr-log.js';
export { LoginRequiredError, type RemoteTransportAuth, type UpstreamAuth } from './children/remote/auth.js';

// MCP revisions, meta-tools and tool results.
export { isEnvelopedMessage, type HttpRequestView, type McpEra, type PlainCall } from './mcp/era.js';
export { isPlainObject, plainParams, toolCallShape, type ToolCallShape } from './mcp/plain-call.js';
export { forwardToolCall, type ForwardContext } from './mcp/forward-call.js';
export { callerCapabilities, decideElicitation, type ElicitationDecision } from './mcp/elicitation.js';
export type { CallerRequest } from './mcp/caller-request.js';
export { structured, toolError } from './mcp/tool-results.js';

// Shared services: the store, limits, fetching on someone else's say-so, the operator web service (hub.operator).
export { DuplicateKeyError, type Store, type StoreCollection } from './store/index.js';
export { addressKey } from './limits/address.js';
export { msUntilBelow, slidingEstimate, WindowCounter } from './limits/window-counter.js';
export { BlockedRequestError, FetchLimitError, guardedFetch, type GuardedFetchOptions } from './net/guarded-fetch.js';
export { makePrivateFolder, PRIVATE_FILE_MODE } from './private-files.js';
export { derivedSecret, hashSecret, newSecret, secretMatches } from './secrets.js';
export type { OperatorService, PasswordCheck } from './operator/service.js';
export { escapeHtml, pageWhenRefused, type PageOptions } from './operator/page.js';

// Observing the hub: what it publishes on node:diagnostics_channel.
export {
  observe,
  Topic,
  traceContextOf,
  TRACE_CONTEXT_KEYS,
  type AuthFailureEvent,
  type HttpRequestEvent,
  type HubEvent,
  type McpRequestEvent,
  type ToolCallEvent,
  type ToolCallOutcome,
} from './observe.js';
