import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerView } from '../children/server-view.js';
import type { Hub } from '../hub.js';
import { observe, type InterceptionDirection } from '../observe.js';
import { Registry } from '../registry.js';
import { toolError } from './tool-results.js';
import type { ToolCall } from './tool-call.js';

/** What running the interceptors needs of the hub: its identity (the events) and its log. */
export type InterceptionHub = Pick<Hub, 'identity' | 'log'>;

/**
 * What an interceptor sees of a call: never the caller's credentials, never the wire.
 * `after`, `afterError` and `duringCall` are handed the same object for one call, so an
 * interceptor may key what it keeps of a call on it (a `WeakMap`).
 */
export interface InterceptedCall {
  readonly server: ServerView;
  /** The tool as resolved, with its declared `inputSchema` and `outputSchema`. */
  readonly tool: Tool;
  /** The arguments the child will get (after any earlier interceptor replaced them). */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The MCP revision the caller speaks. */
  readonly revision: string;
  /** The caller: an OAuth client id or `api-token:<id>`; undefined on an open (loopback) hub. */
  readonly clientId: string | undefined;
  /** `server` for `/<name>/mcp`, `hub` for a call made through `/hub` (`via` names the meta-tool). */
  readonly road: 'server' | 'hub';
  readonly via: string | undefined;
}

/**
 * What an interceptor sees of a `/hub` tool's own answer that carries what tools returned
 * (`run_code`'s): the answer reaches the caller's model like a tool's result does.
 */
export interface InterceptedHubToolCall {
  /** The `/hub` tool answered (`run_code`). */
  readonly tool: string;
  readonly revision: string;
  readonly clientId: string | undefined;
}

/** What `findings` name: kinds from the interceptor's `findingKinds` (others are not counted), never what was found. */
interface Findings {
  readonly findings?: readonly string[];
}

/**
 * An interceptor's word before the call: refuse it (the reason is shown to the caller;
 * `arguments`, when given, is what observers may see of them instead of the caller's, e.g.
 * redacted), replace its arguments, or nothing.
 */
export type BeforeToolCall = (Findings & { refuse: string; arguments?: Record<string, unknown> }) | (Findings & { arguments: Record<string, unknown> }) | Findings | undefined;
/** An interceptor's word after the call: refuse the result (the reason is shown instead), replace it, or nothing. */
export type AfterToolCall = (Findings & { refuse: string }) | (Findings & { result: CallToolResult }) | Findings | undefined;

/** A child's JSON-RPC error for a call, as it reaches the caller: its code stays, its message and data are the child's words. */
export interface ToolCallError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}
/** An interceptor's word on a child's error: replace its message and data (the code stays), or nothing. */
export type AfterToolError = (Findings & { message: string; data?: unknown }) | Findings | undefined;

/** A notification a child sends while the call runs, on its way to the caller (`notifications/progress`). */
export interface ToolCallNotification {
  readonly method: string;
  readonly params: Readonly<Record<string, unknown>>;
}
/** An interceptor's word on a notification: replace its params, drop it (`drop: true`), or nothing. */
export type DuringToolCall = (Findings & { params: Record<string, unknown> }) | (Findings & { drop: true }) | Findings | undefined;

/**
 * An interceptor (`hub.interceptors.add(name, interceptor)`): acts on every tool call of
 * a configured server, on `/<name>/mcp` and through `/hub`, on every revision. `before`
 * runs in ascending `order`, `after` in descending order (the interceptor nearest the
 * child sees the result first). A throw or a run past `timeBudgetMs` fails the call
 * closed: the caller gets a tool error, the hub logs and counts it.
 */
export interface ToolCallInterceptor {
  /** Where it stands among interceptors: lower runs earlier before the call and later after it. Ties go by name. */
  readonly order: number;
  /** How long one `before` or `after` may take, in ms (default 1000). */
  readonly timeBudgetMs?: number;
  /** The kinds of finding it reports (label values of the hub's metrics): a bounded set. */
  readonly findingKinds?: readonly string[];
  before?(call: InterceptedCall): BeforeToolCall | Promise<BeforeToolCall>;
  after?(call: InterceptedCall, result: CallToolResult): AfterToolCall | Promise<AfterToolCall>;
  /**
   * Acts on the answer of a `/hub` tool that carries what tools returned (a meta-tool that
   * declares `interceptedResult`, such as code mode's `run_code`), as `after` acts on a
   * tool's result; the tools it called were each intercepted already.
   */
  afterHubTool?(call: InterceptedHubToolCall, result: CallToolResult): AfterToolCall | Promise<AfterToolCall>;
  /**
   * Acts on the child's JSON-RPC error for the call (its message and data reach the
   * caller: on `/<name>/mcp` as the error, through `/hub` as a tool error's text), in the
   * order of `after`.
   */
  afterError?(call: InterceptedCall, error: ToolCallError): AfterToolError | Promise<AfterToolError>;
  /**
   * Acts on each notification the child sends the caller while the call runs (progress),
   * in the order of `after`; notifications keep their order, and the result waits for them.
   */
  duringCall?(call: InterceptedCall, notification: ToolCallNotification): DuringToolCall | Promise<DuringToolCall>;
}

const DEFAULT_TIME_BUDGET_MS = 1000;

interface Entry {
  readonly name: string;
  readonly owner: string;
  readonly interceptor: ToolCallInterceptor;
  readonly kinds: ReadonlySet<string>;
}

/** The interceptors plugins added (`hub.interceptors`), kept in their declared order. */
export class ToolCallInterceptors extends Registry<ToolCallInterceptor> {
  #before: Entry[] = [];
  #after: Entry[] = [];
  #afterHubTool: Entry[] = [];
  #afterError: Entry[] = [];
  #duringCall: Entry[] = [];
  /** One `InterceptedCall` per call once its arguments are final: what acts after and during a call sees the same object (a key for per-call state). */
  #carriedCall(call: ToolCall, tool: Tool): InterceptedCall {
    return (call.intercepted ??= interceptedCall(call, tool));
  }

  constructor() {
    super('tool-call interceptor');
  }

  override add(name: string, interceptor: ToolCallInterceptor, owner = 'core'): void {
    super.add(name, interceptor, owner);
    const entry = { name, owner, interceptor, kinds: new Set(interceptor.findingKinds ?? []) };
    const ordered = [...this.#before, entry].sort((a, b) => a.interceptor.order - b.interceptor.order || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.#before = ordered.filter((one) => one.interceptor.before !== undefined);
    this.#after = ordered.filter((one) => one.interceptor.after !== undefined).reverse();
    this.#afterHubTool = ordered.filter((one) => one.interceptor.afterHubTool !== undefined).reverse();
    this.#afterError = ordered.filter((one) => one.interceptor.afterError !== undefined).reverse();
    this.#duringCall = ordered.filter((one) => one.interceptor.duringCall !== undefined).reverse();
  }

  /** Whether any interceptor acts on a child's error. */
  get afterError(): boolean {
    return this.#afterError.length > 0;
  }

  /** Whether any interceptor acts on notifications during a call. */
  get duringCall(): boolean {
    return this.#duringCall.length > 0;
  }

  /**
   * The interceptors of a child's error, in the order of `runAfter`, each handed what the
   * one before it left; a failure withholds the child's words (the code stays).
   */
  async runAfterError(hub: InterceptionHub, call: ToolCall, tool: Tool, error: ToolCallError): Promise<ToolCallError> {
    let current = error;
    for (const entry of this.#afterError) {
      const seen = current;
      const verdict = await this.#ask(hub, call, entry, 'error', () => entry.interceptor.afterError?.(this.#carriedCall(call, tool), seen));
      if (verdict === FAILED) return { code: error.code, message: `The server's error was withheld: the interceptor "${entry.name}" of plugin "${entry.owner}" failed on it; the hub's log says why` };
      if (!verdict) continue;
      if ('message' in verdict) {
        current = { code: error.code, message: verdict.message, ...(verdict.data !== undefined && { data: verdict.data }) };
        publish(hub, call, entry, 'error', 'replaced', verdict.findings);
      } else if (verdict.findings?.length) publish(hub, call, entry, 'error', 'seen', verdict.findings);
    }
    return current;
  }

  /**
   * The interceptors of a notification during a call, in the order of `runAfter`: the
   * notification as they left it, or undefined when one dropped it (or failed on it: a
   * notification is not worth failing the call for, and its words are not passed on).
   */
  async runDuringCall(hub: InterceptionHub, call: ToolCall, tool: Tool, notification: ToolCallNotification): Promise<ToolCallNotification | undefined> {
    let current = notification;
    for (const entry of this.#duringCall) {
      const seen = current;
      const verdict = await this.#ask(hub, call, entry, 'notification', () => entry.interceptor.duringCall?.(this.#carriedCall(call, tool), seen));
      if (verdict === FAILED) return undefined;
      if (!verdict) continue;
      if ('drop' in verdict) {
        publish(hub, call, entry, 'notification', 'refused', verdict.findings);
        return undefined;
      }
      if ('params' in verdict) {
        current = { method: current.method, params: verdict.params };
        publish(hub, call, entry, 'notification', 'replaced', verdict.findings);
      } else if (verdict.findings?.length) publish(hub, call, entry, 'notification', 'seen', verdict.findings);
    }
    return current;
  }

  /** Whether any interceptor acts before the call. */
  get before(): boolean {
    return this.#before.length > 0;
  }

  /** Whether any interceptor acts after the call. */
  get after(): boolean {
    return this.#after.length > 0;
  }

  /**
   * The interceptors before the call, in order: a refusal (a tool error naming the plugin
   * and its reason) ends the call; replaced arguments go on to the next and to the child.
   * At once, without a promise, while every interceptor answers at once (the common case:
   * this runs on every call).
   */
  runBefore(hub: InterceptionHub, call: ToolCall, tool: Tool): CallToolResult | undefined | Promise<CallToolResult | undefined> {
    return this.#runBefore(hub, call, tool, 0);
  }

  #runBefore(hub: InterceptionHub, call: ToolCall, tool: Tool, first: number): CallToolResult | undefined | Promise<CallToolResult | undefined> {
    for (let index = first; index < this.#before.length; index++) {
      const entry = this.#before[index] as Entry;
      const seen = interceptedCall(call, tool);
      const verdict = this.#ask(hub, call, entry, 'arguments', () => entry.interceptor.before?.(seen));
      if (isPromise(verdict)) {
        return verdict.then((settled) => {
          const ended = beforeVerdict(hub, call, entry, settled);
          return ended === GO_ON ? this.#runBefore(hub, call, tool, index + 1) : ended;
        });
      }
      const ended = beforeVerdict(hub, call, entry, verdict);
      if (ended !== GO_ON) return ended;
    }
    return undefined;
  }

  /**
   * The interceptors after the call, in reverse order, each handed what the one before it
   * left. `replaced` is told whether the result is no longer the child's. At once while
   * every interceptor answers at once, as `runBefore`.
   */
  runAfter(hub: InterceptionHub, call: ToolCall, tool: Tool, result: CallToolResult): AfterRun | Promise<AfterRun> {
    return this.#runAfter(hub, call, this.#after, { result, replacedBy: undefined, ended: false }, 0, (entry, current) => entry.interceptor.after?.(this.#carriedCall(call, tool), current));
  }

  /**
   * The interceptors of a `/hub` tool's answer that carries what tools returned, in the
   * order of `runAfter`; a refusal or a failure is the answer instead.
   */
  async runAfterHubTool(hub: InterceptionHub, call: InterceptedHubToolCall, result: CallToolResult): Promise<CallToolResult> {
    const site: Site = { server: undefined, tool: call.tool };
    return (await this.#runAfter(hub, site, this.#afterHubTool, { result, replacedBy: undefined, ended: false }, 0, (entry, current) => entry.interceptor.afterHubTool?.(call, current))).result;
  }

  #runAfter(
    hub: InterceptionHub,
    call: ToolCall | Site,
    entries: readonly Entry[],
    run: AfterRun,
    first: number,
    verdictOf: (entry: Entry, result: CallToolResult) => AfterToolCall | Promise<AfterToolCall>,
  ): AfterRun | Promise<AfterRun> {
    for (let index = first; index < entries.length && !run.ended; index++) {
      const entry = entries[index] as Entry;
      const current = run.result;
      const verdict = this.#ask(hub, call, entry, 'result', () => verdictOf(entry, current));
      if (isPromise(verdict)) return verdict.then((settled) => this.#runAfter(hub, call, entries, afterVerdict(hub, call, entry, settled, run), index + 1, verdictOf));
      run = afterVerdict(hub, call, entry, verdict, run);
    }
    return run;
  }

  /**
   * One interceptor's verdict within its budget; a throw or an overrun is logged, counted
   * and FAILED. A verdict given at once is passed on at once: no timer, no promise.
   */
  #ask<V>(hub: InterceptionHub, call: ToolCall | Site, entry: Entry, direction: InterceptionDirection, run: () => V | Promise<V>): V | typeof FAILED | Promise<V | typeof FAILED> {
    let verdict: V | Promise<V>;
    try {
      verdict = run();
    } catch (error) {
      return failedVerdict(hub, call, entry, direction, error);
    }
    return isPromise(verdict) ? within(verdict, entry.interceptor.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS).catch((error: unknown) => failedVerdict(hub, call, entry, direction, error)) : verdict;
  }
}

/** An interceptor that threw or ran past its budget: logged, counted, and FAILED. */
function failedVerdict(hub: InterceptionHub, call: ToolCall | Site, entry: Entry, direction: InterceptionDirection, error: unknown): typeof FAILED {
  const overran = error instanceof Overrun;
  const thrown = error as Partial<Error> | null | undefined;
  const why = overran ? `ran past its time budget of ${entry.interceptor.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS} ms` : (thrown?.message ?? String(error));
  logFailure(hub.log, call, entry, direction, why);
  publish(hub, call, entry, direction, 'failed', undefined, overran ? 'overran' : 'threw');
  return FAILED;
}

/** What the `after` interceptors made of a result so far; `ended` when one refused it or failed (the result is then the refusal). */
export interface AfterRun {
  result: CallToolResult;
  replacedBy: string | undefined;
  ended: boolean;
}

/** Marks a verdict before the call that lets it go on. */
const GO_ON = Symbol('go on');

/** What one verdict before the call makes of it: a refusal that ends it, or GO_ON. */
function beforeVerdict(hub: InterceptionHub, call: ToolCall, entry: Entry, verdict: BeforeToolCall | typeof FAILED): CallToolResult | typeof GO_ON {
  if (verdict === FAILED) return failedClosed(entry, 'arguments');
  if (!verdict) return GO_ON;
  if ('refuse' in verdict) {
    if (verdict.arguments) replaceArguments(call, verdict.arguments);
    publish(hub, call, entry, 'arguments', 'refused', verdict.findings);
    return refusal(entry, verdict.refuse);
  }
  if ('arguments' in verdict) {
    replaceArguments(call, verdict.arguments);
    publish(hub, call, entry, 'arguments', 'replaced', verdict.findings);
  } else if (verdict.findings?.length) publish(hub, call, entry, 'arguments', 'seen', verdict.findings);
  return GO_ON;
}

/** What one verdict after the call makes of the run so far. */
function afterVerdict(hub: InterceptionHub, call: ToolCall | Site, entry: Entry, verdict: AfterToolCall | typeof FAILED, run: AfterRun): AfterRun {
  if (verdict === FAILED) return { result: failedClosed(entry, 'result'), replacedBy: undefined, ended: true };
  if (!verdict) return run;
  if ('refuse' in verdict) {
    publish(hub, call, entry, 'result', 'refused', verdict.findings);
    return { result: refusal(entry, verdict.refuse), replacedBy: undefined, ended: true };
  }
  if ('result' in verdict) {
    publish(hub, call, entry, 'result', 'replaced', verdict.findings);
    return { result: verdict.result, replacedBy: entry.owner, ended: false };
  }
  if (verdict.findings?.length) publish(hub, call, entry, 'result', 'seen', verdict.findings);
  return run;
}

const FAILED = Symbol('failed');

/** Where an interception happened, for the log and observers: a server's tool, or a `/hub` tool (no server). */
interface Site {
  readonly server: ServerView | undefined;
  readonly tool: string;
}

function siteOf(call: ToolCall | Site): Site {
  return 'params' in call ? { server: call.server.view, tool: call.params.name } : call;
}

class Overrun extends Error {}

function isPromise<V>(value: V | Promise<V>): value is Promise<V> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

async function within<V>(verdict: Promise<V>, budgetMs: number): Promise<V> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([verdict, new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Overrun()), budgetMs)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The call carries the new arguments, and observers see those: none keeps what an interceptor took out. */
function replaceArguments(call: ToolCall, args: Record<string, unknown>): void {
  call.params = { ...call.params, arguments: args };
  if (call.event) call.event.params = call.params;
}

function interceptedCall(call: ToolCall, tool: Tool): InterceptedCall {
  return {
    server: call.server.view,
    tool,
    arguments: call.params.arguments ?? {},
    revision: call.revision.revision,
    clientId: call.caller.clientId,
    road: call.road,
    via: call.via,
  };
}

function refusal(entry: Entry, reason: string): CallToolResult {
  return toolError(`Tool call refused by ${entry.owner === entry.name ? `plugin "${entry.owner}"` : `plugin "${entry.owner}" (${entry.name})`}: ${reason}`);
}

function failedClosed(entry: Entry, direction: InterceptionDirection): CallToolResult {
  return toolError(
    `Tool call failed: the interceptor "${entry.name}" of plugin "${entry.owner}" failed on the call's ${direction}, so the ${
      direction === 'arguments' ? 'call was not carried' : 'result was withheld'
    }; the hub's log says why`,
  );
}

/** Never the arguments or the result: an interceptor's own message is all that is logged. */
function logFailure(log: FastifyBaseLogger, call: ToolCall | Site, entry: Entry, direction: InterceptionDirection, why: string): void {
  const { server, tool } = siteOf(call);
  log.warn({ interceptor: entry.name, plugin: entry.owner, ...(server && { server: server.name }), tool, direction, err: why }, 'a tool-call interceptor failed; the call failed closed');
}

function publish(
  hub: InterceptionHub,
  call: ToolCall | Site,
  entry: Entry,
  direction: InterceptionDirection,
  action: 'refused' | 'replaced' | 'seen' | 'failed',
  findings: readonly string[] | undefined,
  failure?: 'threw' | 'overran',
): void {
  if (!observe.interception.active) return;
  const { server, tool } = siteOf(call);
  observe.interception.publish({
    hub: hub.identity,
    interceptor: entry.name,
    plugin: entry.owner,
    server,
    tool,
    direction,
    action,
    findings: findings?.filter((kind) => entry.kinds.has(kind)) ?? [],
    failure,
  });
}
