/**
 * `mcp-switchyard/plugin/observe`: what an observer of the hub needs (metrics, traces,
 * audit): the hub's events (`hub.observe`) and its servers' lifecycle (`hub.servers.observe`).
 */
export type {
  AuthFailureEvent,
  ConfigReloadEvent,
  HttpRequestEvent,
  HubEvent,
  HubToolCallEvent,
  HubTopic,
  HubTopics,
  InterceptionDirection,
  InterceptionEvent,
  McpHttpRequest,
  McpRequestEvent,
  PluginFaultEvent,
  ToolCallEvent,
  ToolCallOutcome,
  ToolWithheldEvent,
} from '../observe.js';
export { traceContextOf, TOOL_CALL_OUTCOMES, TRACE_CONTEXT_KEYS } from '../observe.js';
export type { AccessRecord } from '../access-log.js';
export type { ServerObserver } from '../plugin-hub.js';
export type { ChildStartEvent, StartReason } from '../children/child-observer.js';
export { CHILD_STATUSES, type ChildStatus, type ChildTransition } from '../children/child-states.js';
