import type { Client, PriorDiscovery, VersionNegotiationOptions } from '@modelcontextprotocol/client';
import type {
  CallToolRequestParams,
  CallToolResult,
  Implementation,
  InputRequiredResult,
  JSONRPCMessage,
  McpHandlerRequestOptions,
  McpHttpHandler,
  RequestId,
  Server,
  ServerCapabilities,
  ServerContext,
  ServerOptions,
  Tool,
} from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';

/** What a revision reads of an HTTP request to an MCP endpoint: its method, headers and parsed body. */
export interface HttpRequestView {
  method: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A `tools/call` a revision answers on the fast road, without the SDK's per-request server. */
export interface PlainCall {
  id: RequestId;
  params: CallToolRequestParams;
  /** The per-request envelope, for callers of the work (a revision without one gives `{}`). */
  envelope: Record<string, unknown>;
}

/**
 * The SDK server that answers one request on a revision, built by the endpoint. A
 * revision hands the factory the SDK's context as the SDK gave it (`requestInfo` is the
 * request the SDK's handler is serving).
 */
export type RevisionServerFactory = (context: { authInfo?: McpHandlerRequestOptions['authInfo']; requestInfo?: Request }) => Server | Promise<Server>;

/** One endpoint's HTTP handler for the requests a revision serves. */
export interface RevisionHandler {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Tells the revision's open streams of a change; absent on a revision that pushes nothing. */
  notify?: McpHttpHandler['notify'];
  close(): Promise<void>;
}

/** What a child's question becomes for a caller: the question kept, and the embedded requests dropped, by method. */
export interface RelayedQuestion {
  /** Undefined when nothing is left to ask. */
  question: InputRequiredResult | undefined;
  dropped: Map<string, string[]>;
}

/**
 * A revision toward callers: how its requests are recognised and served, what is
 * advertised, how results are framed. The kernel asks the revision that serves a request
 * and never names one.
 */
export interface CallerWire {
  /** The protocol era a caller of this revision is in, as `describe_connection` reports it (`legacy` for 2025-11-25, `modern` after). */
  era: 'modern' | 'legacy';
  /** Whether this revision serves the request (its mechanism, and its revision string where the request names one). */
  serves(request: HttpRequestView): boolean;
  /**
   * Whether the request uses this revision's mechanism, whatever revision it names: a
   * request no revision serves is refused naming the revisions that claim its kind.
   */
  claims(request: HttpRequestView): boolean;
  /** Whether a message of a stdio session belongs to this revision. */
  servesMessage(message: JSONRPCMessage): boolean;
  /** The revision a request names by this revision's mechanism (a header, the body), unchecked; undefined when it names none this way. */
  requestedRevision(request: HttpRequestView): string | undefined;
  /** Whether the request opens a long-lived stream (counted against CLIENT_MAX_STREAMS, not as a call). */
  opensStream(body: unknown): boolean;
  /** The resource URIs a request asks to hear about while its response is open; none on a revision without such streams. */
  listenedResources(body: unknown): string[];
  /** The SDK handler that serves this revision's requests on one endpoint. */
  createHandler(factory: RevisionServerFactory): RevisionHandler;
  /** Options the SDK server of a request on this revision needs beyond the endpoint's own. */
  serverOptions?: Pick<ServerOptions, 'supportedProtocolVersions'>;
  /**
   * The child's capabilities (as it showed them to a client of this revision, else as it
   * showed them on the revision the hub speaks with it) narrowed to what the hub carries
   * on this revision: never one the child did not declare.
   */
  capabilities(child: ServerCapabilities | undefined): ServerCapabilities;
  /**
   * Whether the hub refuses `method` on this revision (`-32601`) although a child may answer
   * it: what the revision itself cannot carry through a stateless endpoint (the README's
   * table). Every other method a caller sends is forwarded and the child's answer returned.
   */
  refuses(method: string): boolean;
  /**
   * The HTTP status of a method-not-found answer on this revision, as its SDK handler gives
   * one for a method it has no handler for: a child's own method-not-found, relayed, gets it too.
   */
  methodNotFoundStatus: number;
  /**
   * The id of the request a caller's message cancels, on a revision whose cancellation
   * arrives apart from the request it cancels (a message of its own, which a stateless
   * endpoint cannot tie to the call); absent on a revision whose cancellation travels with
   * its request. The hub matches it to the caller's call in flight by the caller's identity.
   */
  cancelledRequest?(message: unknown): RequestId | undefined;
  /**
   * Whether `logging/setLevel` sets a level the hub keeps for the caller's later requests
   * to the endpoint (by the caller's identity, as cancellations are matched), on a revision
   * whose endpoint is stateless and whose requests carry no level of their own. A child's
   * log messages during the caller's call then reach it at that level and above.
   */
  keepsLogLevel?: boolean;
  /** A child's tool as advertised on this revision. */
  presentTool(tool: Tool): Tool;
  /** A child's call result as delivered on this revision, given the tool as the child declared it. */
  presentResult(tool: Tool | undefined, result: CallToolResult): CallToolResult;
  /** Whether a child's question can reach a caller on this revision (see `decideElicitation`). */
  elicitation: 'carried' | 'not-offered' | 'switched-off';
  /** A child's question as a caller on this revision gets it, keeping only the embedded requests `carried` accepts. */
  relayQuestion(question: InputRequiredResult, carried: (method: string) => boolean): RelayedQuestion;
  /** What a caller's retry carries back to the child (its answers to a question); undefined on a first call. */
  answersOf(request: ServerContext['mcpReq']): Record<string, unknown> | undefined;
  /**
   * The fast road: the plain `tools/call` this request is, or undefined when it needs the
   * SDK (progress, a question the caller could answer, a retry's answers, anything
   * malformed, which must get the SDK's own error).
   */
  plainCall(request: HttpRequestView): PlainCall | undefined;
  /** A fast-road result as this revision puts it on the wire, stating `identity` where the revision does. */
  frameResult(result: CallToolResult, identity: Implementation): Record<string, unknown>;
  /**
   * A child's JSON-RPC error to a caller's `method` as this revision answers the same
   * failure: a code another revision defined (the child spoke it with the hub) becomes this
   * revision's, a tool call's possibly a tool error. Absent, or returning `error`, the
   * child's error is relayed as it came.
   */
  relayedError?(error: WireError, method: string): WireError | CallToolResult;
}

/** A JSON-RPC error as it crosses the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** What the hub remembers of a connection's negotiation, to connect the next time without asking again. */
export interface RememberedNegotiation {
  /** The revision the connection spoke. */
  revision: string;
  /** What the child advertised, where the revision has such an advertisement. */
  advertisement?: Record<string, unknown>;
  /** When it was learnt (epoch ms). */
  at: number;
}

/** How the hub hears a child's changes on one connection. */
export interface ChildWatching {
  /** Asks the child for its list changes and for updates of `uris` (replacing what was asked before). */
  update(uris: string[]): Promise<void>;
}

/**
 * A revision toward children: what the hub does on a connection that negotiated it.
 * The SDK client negotiates; this says how such a connection is probed and watched, how
 * its answers are read, and what of them the hub keeps.
 */
export interface ChildWire {
  /** Whether a connection that negotiated `version` speaks this revision. */
  speaks(version: string): boolean;
  /** Whether the SDK client must probe for this revision when it connects (false: the plain handshake finds it). */
  probed: boolean;
  /**
   * How an SDK client negotiates a connection that speaks this revision and no other: how
   * the hub asks what a child shows a client of this revision when it speaks another with it.
   */
  pinned: VersionNegotiationOptions;
  /** Proves a live connection answers (what the revision has for a ping), within `timeout` ms or until `signal` aborts. */
  probe(client: Client, options: { timeout: number; signal?: AbortSignal }): Promise<unknown>;
  /**
   * The watch of one connection's changes. `ended` is called, with why, when a watch that
   * was in place ends without the hub asking (a listen stream closed, cut or timed out):
   * the kernel then asks again (`update`) with back-off.
   */
  watch(client: Client, ended: (reason: string) => void): ChildWatching;
  /**
   * A result as the revision requires it, for a child that leaves out what is evident
   * (read as the SDK reads the other revision's results); undefined when nothing is missing.
   */
  repair(result: Record<string, unknown>): Record<string, unknown> | undefined;
  /**
   * A result without what only this revision's wire carries, when that is evidently in
   * order (a complete result's kind): what the kernel reads by hand on the plain road
   * (plain-answer.ts). Undefined when only the SDK's codec can tell; without this member
   * every answer goes to the codec.
   */
  plainResult?(result: Record<string, unknown>): Record<string, unknown> | undefined;
  /** Drops the child's own identity from an answer the hub relays as its own. */
  withoutIdentity<T extends { _meta?: Record<string, unknown> }>(result: T): T;
  /** Whether a child on this revision asks its questions as results, which a caller answers on a retry. */
  asksByResult: boolean;
  /** What to remember of a connection that negotiated this revision (`previous`: what the connect started from). */
  remember(client: Client, previous: RememberedNegotiation | undefined, now: number): RememberedNegotiation;
  /** The prior for the next connect from what was remembered, or undefined when it must not be trusted any more. */
  prior(remembered: RememberedNegotiation, now: number): PriorDiscovery | undefined;
}

/**
 * One MCP revision, registered by a revision plugin under its revision string, with the
 * two sides of its wire. A revision that callers speak but no child negotiates has no
 * `child`; one kept for children only (the plugin's `callers: false`) has no `callers`.
 */
export interface McpRevision {
  revision: string;
  callers?: CallerWire;
  child?: ChildWire;
}
