import type { CallToolRequestParams, ClientCapabilities, Tool } from '@modelcontextprotocol/server';
import type { Child } from '../children/child.js';
import type { ToolCallEvent, ToolCallOutcome } from '../observe.js';
import type { CallerRequest } from './caller-request.js';
import type { InterceptedCall } from './interceptors.js';
import type { RequestWake } from '../http/request-wake.js';
import type { ServedRevision } from '../revisions/served-revision.js';

/**
 * What a meta-tool's call of a server's tool reports back to the `/hub` call that made it
 * (see `MetaToolContext.hubCall`): whether observers heard it as that server's call, so
 * that `/hub`'s own event is not published a second time.
 */
export interface HubCallRecord {
  heardAsServerCall: boolean;
}

/**
 * One tool call of a configured server, made once on whichever road it came by
 * (`/<name>/mcp` plain or SDK, `/hub`'s `call_tool`, hub-stdio, a plugin's
 * `servers.callTool`) and passed explicitly through every stage of the pipeline
 * (pipeline.ts). Nothing about a call in flight lives anywhere else.
 */
export interface ToolCall {
  /** The revision the caller speaks. */
  readonly revision: ServedRevision;
  /** The caller: identity, reach, cancellation, progress sink, `_meta` (trace context), a retry's answers, the access record. */
  readonly caller: CallerRequest;
  /** What a stdio session declared when it opened; per-request capabilities win. */
  readonly sessionCapabilities: ClientCapabilities | undefined;
  /**
   * The server the call goes to: the one called, or, for a virtual server's tool, the
   * underlying server once the resolve stage routed it (`virtual` keeps the one called).
   */
  server: Child;
  /** For a call of a virtual server's tool, once routed: the virtual server and the tool as the caller named it. */
  virtual: { server: Child; tool: string } | undefined;
  /**
   * `server`: the server's own endpoint (a transparent proxy: a name the server does not
   * list is the server's to answer while it is up). `hub`: on behalf of a caller of
   * `/hub` (its reach and `hub: false` are gates).
   */
  readonly road: 'server' | 'hub';
  /** What made the call on `/hub` (the meta-tool, `call_tool` or another), recorded in the access record. */
  readonly via: string | undefined;
  /** The call as the child gets it: the name the caller gave, the arguments (an interceptor may replace them), `_meta`. */
  params: CallToolRequestParams;
  /** The tool as resolved (set by the resolve stage). */
  tool: Tool | undefined;
  /** The request's one wait for the child (deadline and wake budget), when its road made one. */
  wake: RequestWake | undefined;
  /** The observation of the call, when anyone observes (see observation.ts). */
  event: ToolCallEvent | undefined;
  /** How the call ended: set by the pipeline's stages, and by `runToolCall` for every call when it ends (observers read it). */
  outcome: ToolCallOutcome | undefined;
  /** Whether the call went out to the child (its connection was up): a failure before is `unavailable`. */
  sent: boolean;
  /** The `/hub` call this one was made for, told that observers heard it. */
  readonly hubCall: HubCallRecord | undefined;
  /**
   * What the interceptors after and during the call see of it, made once its arguments are
   * final (interceptors.ts): one object, a key for an interceptor's per-call state. A field
   * rather than a WeakMap beside the call: a weak entry per call cost more than the call's
   * other bookkeeping (issue 54.4).
   */
  intercepted: InterceptedCall | undefined;
}

/** What a road knows of a call before the pipeline runs it. */
export interface ToolCallStart {
  revision: ServedRevision;
  caller: CallerRequest;
  server: Child;
  road: 'server' | 'hub';
  params: CallToolRequestParams;
  sessionCapabilities?: ClientCapabilities | undefined;
  via?: string | undefined;
  wake?: RequestWake | undefined;
  hubCall?: HubCallRecord | undefined;
}

/** The call value; one object with a fixed shape, so that every road's calls share one hidden class. */
export function toolCallOf(start: ToolCallStart): ToolCall {
  return {
    revision: start.revision,
    caller: start.caller,
    sessionCapabilities: start.sessionCapabilities,
    server: start.server,
    virtual: undefined,
    road: start.road,
    via: start.via,
    params: start.params,
    tool: undefined,
    wake: start.wake,
    event: undefined,
    outcome: undefined,
    sent: false,
    hubCall: start.hubCall,
    intercepted: undefined,
  };
}
