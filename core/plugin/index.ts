/**
 * The plugin surface, `mcp-switchyard/plugin`: a plugin, the hub it is handed, errors and
 * command lines, and the union of the role entries (`mcp-switchyard/plugin/<role>`). The
 * built-in plugins import the kernel through these entries only, exactly as a third party
 * imports the package (a test holds them to it); what is not here is the kernel's own.
 */
export { definePlugin, type DefaultContext, type HubPlugin, type PluginManifest } from '../plugin.js';
export type { ClientCallLimits, PluginHub, PluginRegistry, ProvidedService, Servers } from '../plugin-hub.js';
export type { LimitRefusal } from '../limits/client-limits.js';
export { declaredCommand, type AdminCommand, type AdminCommandSummary, type AdminOutput, type StoreOnlyActions } from '../cli/admin-command.js';
export type { ToolGate, WithheldInstructions, WithheldTool } from '../children/tool-gates.js';
export type { HubConfig } from '../config/schema.js';
export type { ConfigFile, ConfigProblem, ConfigProblems, ConfigText, EntrySchemas, EntryTrial } from '../config/config-file.js';
export type { HubSettings } from '../config/settings.js';
export { firstSchemaProblem, HUB_ERROR_CODES, HUB_VERSION, HubError, hubErrorCode, pointerToPath, runCli, StartupError, wantsHelp, type HubErrorCode } from './errors.js';
export {
  addressKey,
  CALLER_SERVERS_KEY,
  BlockedRequestError,
  derivedSecret,
  FetchLimitError,
  fromThisMachine,
  guardedFetch,
  hashSecret,
  makePrivateFolder,
  newSecret,
  PRIVATE_FILE_MODE,
  secretMatches,
  withSecretFiles,
  type GuardedFetchOptions,
  type RequestAuthenticator,
} from './auth.js';
export {
  batchedSend,
  ChildEndedError,
  connectClient,
  connectInProcess,
  HubStdioTransport,
  LoginRequiredError,
  PlainReadBuffer,
  plainRoadOf,
  readMessages,
  StderrLog,
  unknownToolProtocolError,
  type CallCancel,
  type ChildConnection,
  type ChildEntry,
  type ChildType,
  type ChildWires,
  type ConnectClientOptions,
  type ConnectContext,
  type EntryCheck,
  type EntryCheckContext,
  type PlainRoad,
  type PlainToolCall,
  type RemoteTransportAuth,
  type ServerEntry,
  type StderrLimits,
  type StderrMemory,
  type ToolRoute,
  type UpstreamAuth,
} from './child-type.js';
export {
  mapJsonStrings,
  mapResultStrings,
  resultStrings,
  toolError,
  type AfterToolCall,
  type AfterToolError,
  type BeforeToolCall,
  type DuringToolCall,
  type InterceptedCall,
  type InterceptedHubToolCall,
  type ResultStringsOptions,
  type ToolCallError,
  type ToolCallInterceptor,
  type ToolCallNotification,
} from './interceptor.js';
export {
  callerCapabilities,
  decideElicitation,
  hubStanding,
  isUnknownTarget,
  lookupTool,
  mayReach,
  offeredOnHub,
  structured,
  unknownServerMessage,
  unknownToolMessage,
  type CallerRequest,
  type ElicitationDecision,
  type HubStanding,
  type MetaTool,
  type MetaToolContext,
  type ServerToolAnswer,
  type ServerView,
  type ToolDeclarations,
  type ToolLookup,
  type UnknownTarget,
} from './meta-tool.js';
export {
  CHILD_STATUSES,
  TOOL_CALL_OUTCOMES,
  TRACE_CONTEXT_KEYS,
  traceContextOf,
  type AccessRecord,
  type AuthFailureEvent,
  type ChildStartEvent,
  type ChildStatus,
  type ChildTransition,
  type ConfigReloadEvent,
  type HttpRequestEvent,
  type HubEvent,
  type HubToolCallEvent,
  type HubTopic,
  type HubTopics,
  type InterceptionDirection,
  type InterceptionEvent,
  type McpHttpRequest,
  type McpRequestEvent,
  type PluginFaultEvent,
  type ServerObserver,
  type StartReason,
  type ToolCallEvent,
  type ToolCallOutcome,
  type ToolWithheldEvent,
} from './observe.js';
export { escapeHtml, ownFormParser, pageWhenRefused, sendApiError, type AccessAdmin, type ApiTokenListing, type ApiTokenRequest, type MintedApiToken, type OAuthClientListing, type OperatorPage, type OperatorService, type PageOptions, type PasswordCheck } from './pages.js';
export {
  isPlainObject,
  plainParams,
  toolCallShape,
  type CallerWire,
  type ChildWatching,
  type ChildWire,
  type HttpRequestView,
  type McpRevision,
  type PlainCall,
  type RelayedQuestion,
  type RememberedNegotiation,
  type RevisionHandler,
  type RevisionServerFactory,
  type ServedRevision,
  type ToolCallShape,
  type WireError,
} from './revision.js';
export { DuplicateKeyError, msUntilBelow, slidingEstimate, WindowCounter, type Store, type StoreCollection } from './store.js';
