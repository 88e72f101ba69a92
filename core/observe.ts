import type { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import type { IncomingHttpHeaders } from 'node:http';
import type { CallToolRequestParams, CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { AccessRecord } from './access-log.js';
import type { ServerView } from './children/server-view.js';
import type { CallerRequest } from './calls/caller-request.js';

/**
 * What the kernel tells observers (metrics, traces, audit logs), published on
 * `node:diagnostics_channel`: the kernel imports no observer, any plugin or APM agent can
 * listen, and with nobody listening a publish point costs one `hasSubscribers` check.
 * Channels are process-wide: several hubs in one process publish on the same ones, so
 * every event names the hub it comes from (its `identity`); a plugin reads and publishes
 * its own hub's through `hub.observe` (`topicsOf`), which keeps to it.
 */

/**
 * How a tool call ended, as metrics and the call log count it: a closed set, so every
 * call has one and a label never takes a value from elsewhere.
 *
 * - `ok`, `tool_error`: the server's result, without or with `isError`;
 * - `protocol_error`: the server answered with a JSON-RPC error, or the connection failed
 *   after the call went out;
 * - `timeout`: no answer within the call timeout;
 * - `unavailable`: never sent, since the server could not be started or woken (down, a
 *   failed start, waiting for an upstream login);
 * - `drained`: cut by the shutdown's drain (still running after `DRAIN_TIMEOUT_MS`), apart
 *   from `protocol_error` so that a deploy does not read as the server failing;
 * - `unknown_tool`: the server has no such tool (as far as the hub knows);
 * - `denied`: the server's `allowTools`/`denyTools` keep the tool out (the caller is
 *   answered as for an unknown tool);
 * - `refused`: the hub would not carry it (a `hub: false` server through `call_tool`, or a
 *   tool a tool gate withholds until an operator approves its definition).
 */
export type ToolCallOutcome = 'ok' | 'tool_error' | 'protocol_error' | 'timeout' | 'unavailable' | 'drained' | 'unknown_tool' | 'denied' | 'refused';

/** Every `ToolCallOutcome`, for observers that set up a series per outcome. */
export const TOOL_CALL_OUTCOMES: readonly ToolCallOutcome[] = ['ok', 'tool_error', 'protocol_error', 'timeout', 'unavailable', 'drained', 'unknown_tool', 'denied', 'refused'];

/**
 * One tool call for a configured server (`/<name>/mcp`, or `/hub` `call_tool` naming the
 * server), the same object at its start, when it is sent and at its end. A call the hub
 * refuses (an unknown or filtered tool, a server that cannot start) is published too,
 * start and end, with its outcome: every call for a server is heard exactly once.
 */
export interface ToolCallEvent {
  readonly hub: object;
  /** The server the call goes to: for a call of a virtual server's tool, the underlying server once the call was resolved. */
  child: ServerView;
  /**
   * The tool as the caller named it (for a virtual server's tool, the underlying tool once
   * resolved). For a refused call it may be a name the server never had: an observer must
   * not make a label (a bounded set) of it unchecked.
   */
  tool: string;
  /** For a call of a virtual server's tool: that server and the tool as the caller named it. */
  virtual: { readonly server: ServerView; readonly tool: string } | undefined;
  readonly revision: string;
  /** The caller: an OAuth client id or `api-token:<id>`; undefined on an open (loopback) hub. */
  readonly clientId: string | undefined;
  /**
   * The call as the caller made it, its `_meta` included; once an interceptor replaced the
   * arguments (a guardrail redacted a secret), the call as it was carried, so that no
   * observer keeps what an interceptor took out.
   */
  params: CallToolRequestParams;
  readonly request: CallerRequest;
  /**
   * The access record of the HTTP request the call came in on (the one log line it gets):
   * an observer sets its `outcome` and `traceId` there rather than logging the call again.
   * Undefined for a call from hub-stdio, or when the access log is off at the log level.
   */
  readonly access: AccessRecord | undefined;
  /** `performance.now()` at the start. */
  readonly startedAt: number;
  /**
   * Keys observers add to the `_meta` of the request sent to the child, at `sent` (a
   * tracer's `traceparent`); they win over the caller's keys of the same name.
   */
  readonly forwardMeta: Record<string, unknown>;
  /** Set when the child was up and the call went out; a call that never got there was refused. */
  sentAt: number | undefined;
  outcome: ToolCallOutcome | undefined;
  /** A JSON-RPC error code, or the code of the failure that ended the call. */
  errorCode: number | string | undefined;
  result: CallToolResult | InputRequiredResult | undefined;
  endedAt: number | undefined;
  /**
   * The byte length of the JSON-RPC answer carrying `result` as the hub wrote it to the
   * caller (envelope included), set just after `toolCallEnd` by a road whose writer counts
   * it (the plain road of `/<name>/mcp`), before the next turn of the event loop; undefined
   * on the other roads (the SDK's, `/hub`, hub-stdio), for an error answer, and until written.
   * An observer that wants the size reads it then instead of serialising the result again.
   */
  resultBytes: number | undefined;
}

/**
 * One call of a tool of `/hub` itself (`list_servers`, `call_tool`, ...), published when
 * it ended; except a call that reached a configured server (`call_tool` naming one),
 * which is that server's `ToolCallEvent` instead: every tool call is heard exactly once.
 */
export interface HubToolCallEvent {
  readonly hub: object;
  /** The tool as the caller named it: a registered meta-tool unless `outcome` is `unknown_tool`. */
  readonly tool: string;
  readonly revision: string;
  readonly clientId: string | undefined;
  readonly params: CallToolRequestParams;
  readonly request: CallerRequest;
  /** `performance.now()` at the start and the end. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** `ok`, `tool_error` (a result with `isError`: the tool refused), `protocol_error` or `unknown_tool`. */
  readonly outcome: ToolCallOutcome;
  readonly errorCode: number | string | undefined;
}

/** The HTTP side of an MCP request, as the kernel received it (read it; never write to it). */
export interface McpHttpRequest {
  /** Lower-case names, as Node gives them: `traceparent`, `mcp-session-id`, ... */
  readonly headers: IncomingHttpHeaders;
  readonly httpVersion: string;
  readonly socket: { readonly remoteAddress?: string | undefined; readonly remotePort?: number | undefined };
}

/** One request on an MCP endpoint, before it is answered; the same object when its response closes. */
export interface McpRequestEvent {
  readonly hub: object;
  /** `hub` for `/hub`, else the server's name. */
  readonly endpoint: string;
  /** The HTTP method: a 2025 client's `GET` (a stream it may open) carries no JSON-RPC message. */
  readonly method: string;
  /** The parsed JSON-RPC body, unchecked. */
  readonly body: unknown;
  /** The revision when the request names one (its header, or `initialize`'s `protocolVersion`), unchecked. */
  readonly revision: string | undefined;
  readonly clientId: string | undefined;
  /** The request itself: its trace context header, session id and peer. */
  readonly http: McpHttpRequest;
  /** `performance.now()` when the endpoint took the request. */
  readonly startedAt: number;
  status: number | undefined;
  /** The request's access record (see `ToolCallEvent.access`); undefined when the access log is off at the log level. */
  readonly access: AccessRecord | undefined;
}

/** One HTTP request the hub answered. `route` is the route's pattern, never the URL. */
export interface HttpRequestEvent {
  readonly hub: object;
  readonly route: string | undefined;
  readonly method: string;
  readonly status: number;
}

export interface AuthFailureEvent {
  readonly hub: object;
  /** A short fixed word: `missing_token`, `invalid_token`, `wrong_password`, an OAuth error code. */
  readonly reason: string;
}

export interface HubEvent {
  readonly hub: object;
}

/** A config reload (SIGHUP, a change of the file, `hub.reloadConfig`) and what became of it. */
export interface ConfigReloadEvent {
  readonly hub: object;
  readonly trigger: string;
  /** `applied`: the servers follow the new config; `refused`: it did not validate, the running one stays. */
  readonly outcome: 'applied' | 'refused';
  /** Why it was refused, for people. */
  readonly error: string | undefined;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly restarted: readonly string[];
  /** Servers whose hub-side keys changed (allowTools, denyTools, hub, timeout), applied without a restart. */
  readonly retuned: readonly string[];
}

/**
 * A tool a tool gate began to withhold from callers (tool pinning: its definition changed
 * since an operator approved it, or it is new), published by the gate's plugin once per
 * definition it withholds.
 */
export interface ToolWithheldEvent {
  readonly hub: object;
  readonly server: string;
  /** Empty for the server's instructions. */
  readonly tool: string;
  /** A short fixed word: `changed`, `new`; `instructions-changed`, `instructions-new` for the server's instructions. */
  readonly cause: string;
}

/** What an interceptor acted on: the call's arguments (before), its result or the child's error (after), or a notification during it. */
export type InterceptionDirection = 'arguments' | 'result' | 'error' | 'notification';

/**
 * An interceptor acted on a tool call (see core/calls/interceptors.ts): refused it,
 * replaced its arguments or result, reported findings without changing anything (`seen`),
 * or failed (`failure`: it threw or overran its time budget; the call failed closed).
 * Never what was found: `findings` are kinds from the interceptor's declared set.
 */
export interface InterceptionEvent {
  readonly hub: object;
  /** The interceptor's registered name, and the plugin that registered it. */
  readonly interceptor: string;
  readonly plugin: string;
  /** The server called; undefined for the answer of a `/hub` tool (`ToolCallInterceptor.afterHubTool`). */
  readonly server: ServerView | undefined;
  /** The tool as the caller named it (unchecked: not a label as it is). */
  readonly tool: string;
  readonly direction: InterceptionDirection;
  readonly action: 'refused' | 'replaced' | 'seen' | 'failed';
  readonly findings: readonly string[];
  readonly failure: 'threw' | 'overran' | undefined;
}

/**
 * A plugin's observer, hook or callback threw (it is logged once per plugin and site, and
 * the hub went on): published every time, so a metric can count them.
 */
export interface PluginFaultEvent {
  readonly hub: object;
  readonly plugin: string;
  /** Where the kernel called the plugin: `observe.toolCallStart`, `servers.observe.transition`, `toolGates.withheld`, ... */
  readonly site: string;
}

/** A typed channel. */
export class Topic<Event extends object> {
  readonly #channel: diagnostics.Channel;

  constructor(readonly name: string) {
    this.#channel = diagnostics.channel(name);
  }

  /** Whether anyone listens: publish points build their event only then. */
  get active(): boolean {
    return this.#channel.hasSubscribers;
  }

  publish(event: Event): void {
    this.#channel.publish(event);
  }

  /** Runs `work` with `event` in the stores observers bound to this channel (their async context), publishing it first. */
  run<T>(event: Event, work: () => T): T {
    return this.#channel.runStores(event, work);
  }

  /** Listens; returns the unsubscribe. */
  subscribe(listener: (event: Event) => void): () => void {
    const handler = (message: unknown): void => listener(message as Event);
    diagnostics.subscribe(this.name, handler);
    return () => void diagnostics.unsubscribe(this.name, handler);
  }

  /** Binds an AsyncLocalStorage to the channel: inside `run`, the store holds what `transform` makes of the event. */
  bindStore<T>(store: AsyncLocalStorage<T>, transform: (event: Event) => T): () => void {
    this.#channel.bindStore(store, (message: unknown) => transform(message as Event));
    return () => void this.#channel.unbindStore(store);
  }
}

/** The kernel's channels (`mcp-switchyard:<what>`). */
export const observe = {
  toolCallStart: new Topic<ToolCallEvent>('mcp-switchyard:tool-call:start'),
  /** The child is up and the call is about to go out: observers fill `forwardMeta` here. */
  toolCallSent: new Topic<ToolCallEvent>('mcp-switchyard:tool-call:sent'),
  toolCallEnd: new Topic<ToolCallEvent>('mcp-switchyard:tool-call:end'),
  hubToolCall: new Topic<HubToolCallEvent>('mcp-switchyard:hub-tool-call'),
  mcpRequest: new Topic<McpRequestEvent>('mcp-switchyard:mcp-request'),
  mcpRequestEnd: new Topic<McpRequestEvent>('mcp-switchyard:mcp-request:end'),
  httpRequest: new Topic<HttpRequestEvent>('mcp-switchyard:http-request'),
  authFailure: new Topic<AuthFailureEvent>('mcp-switchyard:auth-failure'),
  tokenRotation: new Topic<HubEvent>('mcp-switchyard:token-rotation'),
  rateLimited: new Topic<HubEvent>('mcp-switchyard:rate-limited'),
  configReload: new Topic<ConfigReloadEvent>('mcp-switchyard:config-reload'),
  toolWithheld: new Topic<ToolWithheldEvent>('mcp-switchyard:tool-withheld'),
  interception: new Topic<InterceptionEvent>('mcp-switchyard:interception'),
  pluginFault: new Topic<PluginFaultEvent>('mcp-switchyard:plugin-fault'),
  /** A promise was rejected with nobody to handle it, and the hub's CLI logged it and went on (core/cli/unhandled-rejections.ts). */
  unhandledRejection: new Topic<HubEvent>('mcp-switchyard:unhandled-rejection'),
} as const;

/** The W3C trace context keys that travel in a request's `_meta` (the MCP convention for trace propagation). */
export const TRACE_CONTEXT_KEYS = ['traceparent', 'tracestate'] as const;

/** `version-traceId-parentId-flags` (W3C Trace Context, section 3.2); a future version may add fields after a dash. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;
/** One `key=value` of a tracestate (section 3.3.1): a simple or a multi-tenant key; a value of printable characters but `,` and `=`, not ending in a space. */
const TRACESTATE_MEMBER = /^[a-z0-9][a-z0-9_\-*/]{0,255}(?:@[a-z][a-z0-9_\-*/]{0,13})?=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const TRACESTATE_MAX_MEMBERS = 32;

function isTraceparent(value: unknown): value is string {
  const match = typeof value === 'string' ? TRACEPARENT.exec(value) : null;
  if (!match) return false;
  const [, version, traceId, parentId, more] = match;
  if (version === 'ff' || (version === '00' && more !== undefined)) return false;
  return !/^0+$/.test(traceId ?? '') && !/^0+$/.test(parentId ?? '');
}

function isTracestate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const members = value
    .split(',')
    .map((member) => member.replace(/^[ \t]+|[ \t]+$/g, ''))
    .filter((member) => member !== '');
  return members.length <= TRACESTATE_MAX_MEMBERS && members.every((member) => TRACESTATE_MEMBER.test(member));
}

/**
 * The trace context of a caller's `_meta`, for a request the hub makes on the caller's
 * behalf (`call_tool`'s call to the child), so a trace continues whether or not the hub
 * itself traces. Undefined when there is none. As W3C Trace Context asks, an invalid
 * `traceparent` is dropped with the `tracestate` beside it, and a `tracestate` that does
 * not parse is dropped alone: neither travels on as the caller wrote it.
 */
export function traceContextOf(meta: Record<string, unknown> | undefined): Record<string, string> | undefined {
  const traceparent = meta?.traceparent;
  if (!isTraceparent(traceparent)) return undefined;
  const tracestate = meta?.tracestate;
  return isTracestate(tracestate) ? { traceparent, tracestate } : { traceparent };
}

/** `params` with the caller's trace context as `traceContextOf` keeps it: the same object when there is nothing to drop. */
export function withValidTraceContext<P extends { _meta?: Record<string, unknown> | undefined } | undefined>(params: P): P {
  const meta = params?._meta;
  if (meta === undefined || (!('traceparent' in meta) && !('tracestate' in meta))) return params;
  const kept = traceContextOf(meta);
  if (kept?.traceparent === meta.traceparent && kept?.tracestate === meta.tracestate) return params;
  const { traceparent: _traceparent, tracestate: _tracestate, ...rest } = meta;
  return { ...params, _meta: { ...rest, ...kept } };
}

/** A channel as a plugin sees it: its own hub's events only, and what it publishes marked as its hub's. */
export interface HubTopic<Event extends { readonly hub: object }> {
  /** Whether anyone listens: publish points build their event only then. */
  readonly active: boolean;
  publish(event: Omit<Event, 'hub'>): void;
  /** Listens to this hub's events; returns the unsubscribe. */
  subscribe(listener: (event: Event) => void): () => void;
  /** Binds an AsyncLocalStorage to the channel for this hub's events (see `Topic.bindStore`). */
  bindStore<T>(store: AsyncLocalStorage<T | undefined>, transform: (event: Event) => T): () => void;
}

/** The kernel's channels, each as `HubTopic`. */
export type HubTopics = { readonly [Name in keyof typeof observe]: (typeof observe)[Name] extends Topic<infer Event extends { readonly hub: object }> ? HubTopic<Event> : never };

/**
 * Runs a plugin's listener isolated (`PluginFaults.guard`): a throw is recorded under
 * `site` and the fallback answers, so the publisher (a tool call) goes on.
 */
export type Isolate = <Args extends unknown[], Result>(site: string, fn: (...args: Args) => Result, fallback: () => Result) => (...args: Args) => Result;

const unguarded: Isolate = (_site, fn) => fn;

/** The channels seen from the hub whose events carry `identity`; each listener and transform given runs through `isolate`. */
export function topicsOf(identity: object, isolate: Isolate = unguarded): HubTopics {
  const scoped = <Event extends { readonly hub: object }>(name: string, topic: Topic<Event>): HubTopic<Event> => ({
    get active() {
      return topic.active;
    },
    publish: (event) => topic.publish({ ...event, hub: identity } as Event),
    subscribe: (listener) => {
      const isolated = isolate(`observe.${name}`, listener, () => undefined);
      return topic.subscribe((event) => event.hub === identity && isolated(event));
    },
    bindStore: (store, transform) => {
      const isolated = isolate<[Event], ReturnType<typeof transform> | undefined>(`observe.${name}.bindStore`, transform, () => undefined);
      return topic.bindStore(store, (event) => (event.hub === identity ? isolated(event) : undefined));
    },
  });
  return Object.fromEntries(Object.entries(observe).map(([name, topic]) => [name, scoped(name, topic as Topic<{ hub: object }>)])) as unknown as HubTopics;
}
