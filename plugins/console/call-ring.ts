import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import { jsonByteLength, type PluginHub, type ServerView } from '../../core/plugin/index.js';
import { CallerLabels } from './caller-labels.js';
import { redactedOutput } from './entry-secrets.js';
import { traceContextOf, type HubToolCallEvent, type ToolCallEvent, type ToolCallOutcome } from '../../core/plugin/observe.js';

/** A tool name as long as MCP allows is 128 characters; a caller's made-up one is cut here. */
const MAX_NAME_CHARS = 256;
/** What a failed call's error keeps of the tool's text or the server's last error: enough to read, bounded so the ring's memory is. */
const MAX_ERROR_CHARS = 2000;
/** What a failed call keeps of its server's stderr tail: the last lines, each cut, so that a record stays a few KB. */
const MAX_STDERR_LINES = 10;
const MAX_STDERR_LINE_CHARS = 500;
/** The outcomes in which the server had a part: its stderr may say why. */
const SERVER_FAILURES: ReadonlySet<ToolCallOutcome> = new Set(['tool_error', 'protocol_error', 'timeout', 'unavailable', 'drained']);
/** The endpoint a call of one of `/hub`'s own tools is shown under. */
const HUB_ENDPOINT = 'hub';

/** One tool call as the calls view shows it. Never its arguments or result (they can hold anything a person typed): their sizes only. */
export interface CallRecord {
  /** Increasing from 1 in this hub's life: the event stream's `id`, so a reconnecting page asks for what it missed. */
  id: number;
  /** When it ended (ISO 8601). */
  time: string;
  /** The caller: an OAuth client id, `api-token:<id>`, `console` for the playground; null on an open (loopback) hub. */
  caller: string | null;
  /** An API token caller's label, as minted (`hub-admin tokens mint --label`, the access view); null for any other caller or a token without one. */
  callerLabel: string | null;
  /** The server called (`hub` for a tool of `/hub` itself); for a virtual server's tool, the underlying server. */
  server: string;
  tool: string;
  virtual: { server: string; tool: string } | null;
  /** What made the call: the meta-tool on `/hub` (`call_tool`), `console` for the playground; null for a direct call on `/<name>/mcp`. */
  via: string | null;
  revision: string;
  outcome: ToolCallOutcome;
  durationMs: number;
  /** The arguments as JSON, in UTF-8 bytes. */
  bytesIn: number;
  /**
   * The answer's bytes: as the hub wrote it to the caller where it counts them (the plain
   * road of `/<name>/mcp`, the JSON-RPC envelope included), else the result as JSON; 0 for
   * a call that has no result.
   */
  bytesOut: number;
  /** The JSON-RPC error code, or the code of the failure that ended the call. */
  errorCode: number | string | null;
  /** For a failed call: the tool's error text (`isError`), or for a call that got no answer, the server's last error as the hub knows it. */
  error: string | null;
  /** The W3C trace id: the hub's span when it traces, else the caller's `traceparent`. */
  traceId: string | null;
  /**
   * For a call the server failed (`tool_error`, `protocol_error`, `timeout`, `unavailable`,
   * `drained`): the last lines its process wrote on stderr when the call ended
   * (`ServerView.stderrTail`), secrets masked as a failed test's are; null otherwise, and
   * empty for a server without stderr.
   */
  stderr: string[] | null;
}

/** Which calls a reader wants; an absent key matches every call. `outcome: "failed"` is every outcome but `ok`. */
export interface CallFilter {
  server?: string | undefined;
  caller?: string | undefined;
  outcome?: string | undefined;
}

export function matches(record: CallRecord, filter: CallFilter): boolean {
  if (filter.server !== undefined && record.server !== filter.server && record.virtual?.server !== filter.server) return false;
  if (filter.caller !== undefined && (record.caller ?? '') !== filter.caller && record.callerLabel !== filter.caller) return false;
  if (filter.outcome === 'failed') return record.outcome !== 'ok';
  return filter.outcome === undefined || record.outcome === filter.outcome;
}

/**
 * The last `capacity` tool calls of the hub, heard from its observation events
 * (`toolCallEnd` for a configured server's, `hubToolCall` for `/hub`'s own tools), in a
 * ring that never grows past its capacity; and whoever follows them live (the event
 * stream). With a capacity of 0 nothing is heard and nothing kept.
 */
export class CallRing {
  readonly #records: CallRecord[] = [];
  /** Where the next record goes once the ring is full. */
  #next = 0;
  #lastId = 0;
  readonly #followers = new Set<(record: CallRecord) => void>();
  readonly #unsubscribe: (() => void)[] = [];
  readonly #labels: CallerLabels;
  /** Calls heard while their caller's token label is being learnt, in the order they ended: kept in that order once it is. */
  readonly #waiting: CallRecord[] = [];
  #learning = false;
  #closed = false;
  readonly #env: PluginHub['env'];
  /** The calls ended this turn, and for each whether it was one of `/hub`'s own tools. */
  #endedEvents: (ToolCallEvent | HubToolCallEvent)[] = [];
  #endedOnHub: boolean[] = [];

  constructor(
    hub: PluginHub,
    readonly capacity: number,
  ) {
    this.#labels = new CallerLabels(hub.accessAdmin);
    this.#env = hub.env;
    if (capacity === 0) return;
    // The record is made on the next turn of the event loop: by then every observer of the
    // same event has run (observability writes its own trace id on the access record),
    // whatever the plugins' order, and the plain road has written the answer and set its
    // byte length (`resultBytes`), which spares serialising the result once more.
    // The calls that end in one turn wait for one `setImmediate` together, in the order they ended.
    this.#unsubscribe.push(
      hub.observe.toolCallEnd.subscribe((event) => this.#ended(event, false)),
      hub.observe.hubToolCall.subscribe((event) => this.#ended(event, true)),
    );
  }

  #ended(event: ToolCallEvent | HubToolCallEvent, onHub: boolean): void {
    if (this.#endedEvents.length === 0) setImmediate(this.#makeRecords);
    this.#endedEvents.push(event);
    this.#endedOnHub.push(onHub);
  }

  readonly #makeRecords = (): void => {
    const events = this.#endedEvents;
    const onHub = this.#endedOnHub;
    this.#endedEvents = [];
    this.#endedOnHub = [];
    for (let at = 0; at < events.length; at += 1) {
      this.#heard(onHub[at] ? fromHubCall(events[at] as HubToolCallEvent) : fromServerCall(events[at] as ToolCallEvent, this.#env));
    }
  };

  /** The calls kept, oldest first, that match `filter` and came after `afterId`; at most the last `limit`. */
  list(filter: CallFilter, limit = this.capacity, afterId = 0): CallRecord[] {
    const ordered = [...this.#records.slice(this.#next), ...this.#records.slice(0, this.#next)];
    const found = ordered.filter((record) => record.id > afterId && matches(record, filter));
    return limit >= found.length ? found : found.slice(found.length - limit);
  }

  /** Hears every new call; returns the unsubscribe. */
  follow(listener: (record: CallRecord) => void): () => void {
    this.#followers.add(listener);
    return () => void this.#followers.delete(listener);
  }

  /** How many follow the calls now (the event streams open). */
  get followers(): number {
    return this.#followers.size;
  }

  close(): void {
    this.#closed = true;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#followers.clear();
    this.#waiting.length = 0;
  }

  /** A call ended: kept now, unless its caller is a token whose label is not known yet (or calls before it wait for theirs). */
  #heard(made: CallRecord): void {
    if (this.#closed) return;
    if (this.#waiting.length === 0 && this.#labels.known(made.caller)) {
      this.#add(made);
      return;
    }
    this.#waiting.push(made);
    // Bounded as the ring is: one the ring would have dropped by now goes.
    if (this.#waiting.length > this.capacity) this.#waiting.shift();
    if (!this.#learning) void this.#keepWaiting();
  }

  async #keepWaiting(): Promise<void> {
    this.#learning = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.length;
      await this.#labels.learn(this.#waiting.slice(0, batch).map((made) => made.caller));
      if (this.#closed) return;
      // A listing that failed leaves the label unknown: these calls are kept with their id alone rather than held.
      for (const made of this.#waiting.splice(0, batch)) this.#add(made);
    }
    this.#learning = false;
  }

  /** Numbers the record and keeps it: the record made when the call ended, not a copy (one object a call). */
  #add(record: CallRecord): void {
    record.id = ++this.#lastId;
    record.callerLabel = this.#labels.labelOf(record.caller);
    if (this.#records.length < this.capacity) this.#records.push(record);
    else {
      this.#records[this.#next] = record;
      this.#next = (this.#next + 1) % this.capacity;
    }
    for (const follower of this.#followers) follower(record);
  }
}

function fromServerCall(event: ToolCallEvent, env: PluginHub['env']): CallRecord {
  const outcome = event.outcome ?? 'protocol_error';
  const result = event.result;
  const failedWithoutAnswer = outcome === 'protocol_error' || outcome === 'timeout' || outcome === 'unavailable' || outcome === 'drained';
  return {
    id: 0,
    time: new Date().toISOString(),
    caller: event.clientId ?? null,
    callerLabel: null,
    server: event.child.name,
    tool: cut(event.tool, MAX_NAME_CHARS),
    virtual: event.virtual ? { server: event.virtual.server.name, tool: cut(event.virtual.tool, MAX_NAME_CHARS) } : null,
    via: event.access?.via ?? null,
    revision: event.revision,
    outcome,
    durationMs: milliseconds((event.endedAt ?? performance.now()) - event.startedAt),
    bytesIn: jsonBytes(event.params.arguments ?? {}),
    bytesOut: result === undefined ? 0 : (event.resultBytes ?? jsonBytes(result)),
    errorCode: event.errorCode ?? null,
    error: outcome === 'tool_error' ? toolErrorText(result) : failedWithoutAnswer ? nullable(event.child.problem ?? event.child.lastError) : null,
    traceId: traceIdOf(event),
    stderr: SERVER_FAILURES.has(outcome) ? stderrOf(event.child, env) : null,
  };
}

function stderrOf(server: ServerView, env: PluginHub['env']): string[] {
  const entry = server.entry as Record<string, unknown>;
  return server
    .stderrTail()
    .slice(-MAX_STDERR_LINES)
    .map((line) => cut(redactedOutput(line, entry, env), MAX_STDERR_LINE_CHARS));
}

function fromHubCall(event: HubToolCallEvent): CallRecord {
  return {
    id: 0,
    time: new Date().toISOString(),
    caller: event.clientId ?? null,
    callerLabel: null,
    server: HUB_ENDPOINT,
    tool: cut(event.tool, MAX_NAME_CHARS),
    virtual: null,
    via: null,
    revision: event.revision,
    outcome: event.outcome,
    durationMs: milliseconds(event.endedAt - event.startedAt),
    bytesIn: jsonBytes(event.params.arguments ?? {}),
    bytesOut: 0,
    errorCode: event.errorCode ?? null,
    error: null,
    traceId: traceIdOf(event),
    stderr: null,
  };
}

/** The access record's trace id (the hub's span, set by a tracer, or the caller's), else the caller's `traceparent` in `_meta`. */
function traceIdOf(event: ToolCallEvent | HubToolCallEvent): string | null {
  const recorded = event.request.access?.traceId;
  if (recorded !== undefined) return recorded;
  const traceparent = traceContextOf(event.params._meta ?? event.request.meta)?.traceparent;
  return traceparent === undefined ? null : traceparent.slice(3, 35);
}

function toolErrorText(result: CallToolResult | InputRequiredResult | undefined): string | null {
  // An input-required result's `content`, if it has one, is read as a tool result's.
  const content = result !== undefined && 'content' in result && Array.isArray(result.content) ? (result.content as CallToolResult['content']) : [];
  const text = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return text === '' ? null : cut(text, MAX_ERROR_CHARS);
}

function jsonBytes(value: object): number {
  return jsonByteLength(value) ?? 0;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function nullable(text: string | undefined): string | null {
  return text === undefined ? null : cut(text, MAX_ERROR_CHARS);
}

function milliseconds(value: number): number {
  return Math.round(value * 1000) / 1000;
}
