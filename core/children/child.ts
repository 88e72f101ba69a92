import type { Client, LoggingMessageNotificationParams, Tool } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import { entryCallTimeoutMs } from '../config/other-clients.js';
import type { ServerEntry } from '../config/schema.js';
import { HUB_ERROR_CODES, HubError, errorMessage } from '../errors.js';
import { ToolVisibility } from '../calls/visibility.js';
import type { ChildConnection, ChildType } from './child-type.js';
import { learnFace, readLists, type ChildFace } from './child-faces.js';
import { notifyObservers, type ChildObserver } from './child-observer.js';
import { ChildProfile } from './child-profile.js';
import { ChildStarter, listAllTools } from './child-start.js';
import { systemClock, type ChildClock, type ClockTimer } from './clock.js';
import { isTroubled, nextChildState, type ChildStatus, type RestingStatus } from './child-states.js';
import type { ChildWire } from '../revisions/revision.js';
import { ChildView } from './server-view.js';
import { negotiationOf, type Snapshot, type SnapshotStore } from './snapshot.js';
import type { Supervisor } from './supervisor.js';
import { DEFAULT_CHILD_TIMINGS, type ChildTimings } from './timings.js';
import type { ToolGates, WithheldTool } from './tool-gates.js';
import { ChildWatch, type ChildChange } from './watch.js';
import { childWires, type ChildWires } from './wires.js';

export type { ChildStatus } from './child-states.js';

/** What the registry hands every child: the current timings, where snapshots go, who observes. */
export interface ChildEnvironment {
  timings(): ChildTimings;
  /** The timers of the idle sleep, supervision and pings; the system's when absent. */
  clock?(): ChildClock;
  /** Absent for types that keep no snapshot. */
  snapshots?: SnapshotStore;
  /** Told of every transition and start; read each time, so observers added later are heard. */
  observers?: ReadonlySet<ChildObserver>;
  /** The revisions the hub speaks to children; by default none (only tests build a child without). */
  wires?: ChildWires;
  /** Relative paths in entries are resolved against it; by default the working directory. */
  configDirectory?: string;
  /** What plugins withhold of a server's tools (`hub.toolGates`); by default nothing. */
  gates?: ToolGates;
  /** Why this server cannot run (its entry names an unset variable): it stays down saying so, and is never started. */
  blocked?: string;
}

/**
 * One configured server. Beyond what it said about itself (`ChildProfile`: identity, the
 * filtered tool list, the snapshot), it owns its status, the idle timer, supervision, and
 * through `ChildStarter` the single-flight budgeted wake and the connection. Everything
 * that answers about children reads this object, never the wire, unless it is a call.
 * Its status changes in one place, `#transition`, along `CHILD_TRANSITIONS`.
 */
export class Child extends ChildProfile {
  #status: ChildStatus;
  #lastError: string | undefined;
  /** The stderr tail of the last connection made, which outlives it: what the child said before it failed. */
  #stderrTail: (() => string[]) | undefined;
  readonly supervisor: Supervisor;
  readonly #starter: ChildStarter;
  #idleTimer: ClockTimer | undefined;
  #inFlight = 0;
  /** Who hears the child's log messages now (a call whose caller set a level): see `hearLogs`. */
  readonly #logListeners = new Set<(message: LoggingMessageNotificationParams) => void>();
  #idle: (() => void)[] = [];
  readonly #watch: ChildWatch;
  readonly #environment: ChildEnvironment;
  #view: ChildView | undefined;
  /** Which of the listed tools callers get (the allow/deny filter and the tool gates): the one decision, core/calls/visibility.ts. */
  #visibility: ToolVisibility;
  /** Faces being learnt, by revision: one asking at a time, whoever waits for it. */
  readonly #learning = new Map<string, Promise<ChildFace | null | undefined>>();
  /** Ends the askings under way when the server is put to rest (a process started to ask must not outlive the hub). */
  #stopLearning = new AbortController();

  constructor(
    name: string,
    entry: ServerEntry,
    readonly childType: ChildType,
    readonly log: FastifyBaseLogger,
    environment: ChildEnvironment = { timings: () => DEFAULT_CHILD_TIMINGS },
  ) {
    super(name, entry, environment.snapshots);
    this.#environment = environment;
    this.#visibility = new ToolVisibility(entry, environment.gates, this.view);
    this.#watch = new ChildWatch(name, log, { clock: () => this.#clock, timings: () => this.#environment.timings(), tools: () => this.#refreshTools() });
    this.#watch.onChange((change) => {
      if (change.kind === 'tools') this.#toolsChanged();
      if (change.kind !== 'resource') this.forgetListedFaces();
    });
    this.#status = this.alwaysRunning || environment.blocked !== undefined ? 'down' : 'sleeping';
    this.#lastError = environment.blocked;
    this.#starter = new ChildStarter({
      name,
      entry,
      childType,
      log,
      alwaysRunning: this.alwaysRunning,
      status: () => this.#status,
      wires: environment.wires ?? childWires(() => []),
      configDirectory: environment.configDirectory ?? process.cwd(),
      // A wake's budget is the server's own start timeout.
      timings: () => ({ ...environment.timings(), wakeBudgetMs: this.startTimeoutMs }),
      clock: () => this.#clock,
      transition: (to, reason) => this.#transition(to, reason),
      park: (reason) => void this.#rest('stopped', reason),
      prepare: (connection, wire) => this.#prepare(connection, wire),
      adopt: (client, tools) => this.#adopt(client, tools),
      closed: (reason) => this.#onClosed(reason),
      started: (event) => notifyObservers(this.#environment.observers, this.log, (observer) => observer.start?.(this, event)),
    });
    this.supervisor = this.#starter.supervisor;
  }

  get status(): ChildStatus {
    return this.#status;
  }

  get #clock(): ChildClock {
    return this.#environment.clock?.() ?? systemClock;
  }

  /** Why the server last failed (kept while it starts again or rests); none once it is up. */
  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** The last stderr lines of the server's latest process (see `ServerView.stderrTail`). */
  stderrTail(): string[] {
    return this.#stderrTail?.() ?? [];
  }

  /** Why this server is kept down without being started (its entry names an unset variable), if it is. */
  get blocked(): string | undefined {
    return this.#environment.blocked;
  }

  get alwaysRunning(): boolean {
    return this.childType.alwaysRunning(this.entry);
  }

  /** The entry's own tool call timeout (`timeout`, in ms), when it sets one the hub takes. */
  get callTimeoutMs(): number | undefined {
    return entryCallTimeoutMs(this.entry.timeout);
  }

  /**
   * How long a wake of this server may take, retries included: its entry's
   * `startTimeoutMs`, else the hub's (START_TIMEOUT_MS, the registry's `wakeBudgetMs`).
   */
  get startTimeoutMs(): number {
    return this.entry.startTimeoutMs ?? this.#environment.timings().wakeBudgetMs;
  }

  /** The servers a routing server draws every tool of whose tools are unknown yet (`ChildType.unknownYet`). */
  get unknownYet(): readonly string[] {
    return this.childType.unknownYet?.(this.name) ?? [];
  }

  /** Servers with `hub: false` stay out of `/hub`'s aggregate. */
  get hidden(): boolean {
    return this.entry.hub === false;
  }

  /** Why the server is not serving (it failed and is down, parked, or awaits a login) or not heard (its listen ended and is being reopened), if so. */
  get problem(): string | undefined {
    if (isTroubled(this.#status)) return this.#lastError;
    return this.#status === 'up' ? (this.childType.problem?.(this.name) ?? this.#watch.lost) : undefined;
  }

  /** What plugins see of this server. */
  get view(): ChildView {
    return (this.#view ??= new ChildView(this));
  }

  /**
   * The MCP revision spoken with the child: the live connection's, otherwise the one
   * remembered from the last connect (also across restarts, through the snapshot).
   */
  get revision(): string | undefined {
    return this.#starter.revision;
  }

  /** How the hub speaks to the child on that revision. */
  get wire(): ChildWire | undefined {
    return this.#starter.wires.wireFor(this.revision);
  }

  /**
   * Whether the child's questions come back as results on the revision it speaks, so a
   * caller can answer them on a retry (otherwise it asks mid-call, on a held connection).
   */
  get asksByResult(): boolean {
    return this.wire?.asksByResult ?? false;
  }

  override adoptSnapshot(snapshot: Snapshot): void {
    super.adoptSnapshot(snapshot);
    this.#reviewInstructions(this.instructions);
    for (const face of Object.values(snapshot.faces ?? {})) this.#reviewInstructions((face as ChildFace | null)?.instructions);
    this.#starter.negotiation = negotiationOf(snapshot);
    this.#toolsChanged();
  }

  #toolsChanged(): void {
    notifyObservers(this.#environment.observers, this.log, (observer) => observer.toolsChanged?.(this));
  }

  /**
   * What the child shows a client of `revision`: on the revision spoken with it, what that
   * connection states; on another it speaks, what it showed a connection of that revision
   * (asked once, kept with the snapshot, asked again when the child changes); otherwise,
   * or when the asking does not finish within `budget`, the face of the revision spoken.
   */
  async faceFor(revision: string, budget: () => AbortSignal): Promise<ChildFace> {
    const wires = this.#starter.wires;
    if (!this.#showsAnotherFace(revision)) return this.face;
    const known = this.knownFace(revision);
    if (known !== undefined) return known ?? this.face;
    let learning = this.#learning.get(revision);
    if (!learning) {
      const stop = this.#stopLearning.signal;
      const spokenLists = (signal: AbortSignal) => this.withClient((client) => readLists(client, signal));
      learning = learnFace(
        { name: this.name, entry: this.entry, childType: this.childType, log: this.log, wires, spokenLists, configDirectory: this.#environment.configDirectory ?? process.cwd() },
        revision,
        AbortSignal.any([stop, budget()]),
      ).then((face) => {
        if (face !== undefined && !stop.aborted) this.keepFace(revision, face, this.#starter.negotiation);
        this.#reviewInstructions(face?.instructions);
        return face;
      });
      this.#learning.set(revision, learning);
      void learning.finally(() => this.#learning.delete(revision));
    }
    return (await learning) ?? this.face;
  }

  /** Whether a client of `revision` may be shown other lists than the revision spoken with the child (it speaks another, and can be asked on that one). */
  #showsAnotherFace(revision: string): boolean {
    const wires = this.#starter.wires;
    const spoken = wires.revisionFor(this.revision);
    const wire = wires.wireOf(revision);
    return spoken !== undefined && spoken !== revision && wire !== undefined && !(wire.probed && this.childType.probes === false);
  }

  /**
   * Whether a client of `revision` is not shown tool `name`, which the revision spoken with
   * the child lists: such a call is the child's unknown tool. Decided before any call, not
   * only once a list was served: a child never seen is woken to learn which revision it
   * speaks, and the face of `revision` is asked (within `budget`) when not yet known. A
   * child whose lists read the same on both revisions pays one lookup, and no promise (the
   * answer is a promise only when something had to be waited for).
   */
  hidesTool(revision: string, name: string, budget: () => AbortSignal): boolean | Promise<boolean> {
    const known = this.knownFace(revision);
    if (known !== undefined) return known?.unlisted?.tools?.includes(name) === true;
    // The commonest call: a child whose tools are known, asked on the revision it speaks.
    if (this.toolsKnown && !this.#showsAnotherFace(revision)) return false;
    return this.#hidesToolOnceKnown(revision, name, budget);
  }

  async #hidesToolOnceKnown(revision: string, name: string, budget: () => AbortSignal): Promise<boolean> {
    // A server never seen is woken as the call's own lookup would wake it. One that cannot
    // start shows no face: the call goes on into the pipeline and meets the same failure
    // there (a failed start is remembered for a moment, failedStartMemoryMs, so it is not
    // started twice), where it is answered, counted and logged as the call's outcome.
    try {
      await this.ensureToolsKnown();
    } catch {
      return false;
    }
    if (!this.#showsAnotherFace(revision)) return false;
    return (await this.faceFor(revision, budget)).unlisted?.tools?.includes(name) === true;
  }

  /** The tools a caller of `revision` is shown: those of its face when that lists its own, else `tools` (see `ServerView.toolsShownTo`). */
  async toolsShownTo(revision: string): Promise<Tool[]> {
    if (!this.#showsAnotherFace(revision)) return this.tools;
    const own = (await this.faceFor(revision, () => AbortSignal.timeout(this.startTimeoutMs))).lists?.tools;
    return own === undefined ? this.tools : own.filter((tool) => this.offers(tool));
  }

  /** The instructions callers get, as the server last stated them on the revision spoken, once every tool gate was asked. */
  get servedInstructions(): string | undefined {
    return this.#gatedInstructions(this.instructions);
  }

  /**
   * The instructions a caller of `face` gets: the gates are asked afresh when one withholds
   * them (an approval may have been given in another process), then what they serve.
   */
  async instructionsOf(face: ChildFace): Promise<string | undefined> {
    const text = face.instructions;
    const gates = this.#environment.gates;
    if (text === undefined || gates === undefined || gates.open) return text;
    if (gates.instructions(this.view, text) !== undefined) await gates.refresh(this.view);
    return this.#gatedInstructions(text);
  }

  #gatedInstructions(text: string | undefined): string | undefined {
    const gates = this.#environment.gates;
    if (text === undefined || gates === undefined || gates.open) return text;
    const withheld = gates.instructions(this.view, text);
    return withheld === undefined ? text : withheld.instead;
  }

  #reviewInstructions(text: string | undefined): void {
    const gates = this.#environment.gates;
    if (text !== undefined && gates !== undefined && !gates.open) gates.reviewInstructions(this.view, text);
  }

  /** The tools callers get: through the allow/deny filter and every tool gate. */
  get tools(): Tool[] {
    return this.#visibility.offered(this.listedTools);
  }

  /**
   * Whether the child's changes can be heard: false while its connection refuses to be
   * watched (its list changes are then re-listed, and resource updates cannot be relayed).
   */
  get watchable(): boolean {
    return !this.#watch.unwatchable;
  }

  /** Whether the allow/deny filter lets a tool of that name through. */
  isToolAllowed(toolName: string): boolean {
    return this.#visibility.allowed(toolName);
  }

  /** Whether callers get `tool` as a face other than the revision spoken shows it: through the allow/deny filter and every tool gate. */
  offers(tool: Tool): boolean {
    return this.#visibility.offers(tool);
  }

  /** A tool callers get; undefined for one filtered, withheld by a gate, or unknown (`recheckTool` tells which). */
  findTool(toolName: string): Tool | undefined {
    return this.#visibility.find(this.listedTools, toolName);
  }

  /** The tools the filter lets through that a tool gate withholds now, with why. */
  get withheldTools(): WithheldTool[] {
    return this.#visibility.withheldOf(this.listedTools);
  }

  /** Asks the tool gates afresh (an approval may have been given elsewhere) when they withhold a tool now. */
  async recheckWithheld(): Promise<void> {
    if (this.withheldTools.length > 0) await this.#environment.gates?.refresh(this.view);
  }

  /**
   * For a tool `findTool` does not give: the tool once the gates were asked afresh, or why
   * one still withholds it, or undefined when the server offers no such tool (filtered or
   * unknown).
   */
  recheckTool(toolName: string): Promise<Tool | string | undefined> {
    return this.#visibility.recheck(() => this.listedTools, toolName);
  }

  /** Tells the server's callers its tool list changed (a gate now offers or withholds a tool); nothing is asked of the server. */
  toolsChanged(): void {
    this.#watch.emit({ kind: 'tools' });
  }

  /** Takes a tool list (from the server or its snapshot); the tool gates review it before anyone can list it. */
  override adoptTools(tools: Tool[]): void {
    super.adoptTools(tools);
    const gates = this.#environment.gates;
    if (gates !== undefined && !gates.open) gates.review(this.view, this.#visibility.filtered(this.listedTools));
  }

  /** Starts a server whose tool list was never seen (its first use); once known, the cache answers. */
  async ensureToolsKnown(): Promise<void> {
    if (!this.toolsKnown) await this.ensureUp();
  }

  /**
   * Called on every change the child reports: its tool list (after the hub refreshed it,
   * also when a restart brought a different list), its prompt or resource list, or an
   * update of a watched resource. Returns the unsubscribe.
   */
  onChange(listener: (change: ChildChange) => void): () => void {
    return this.#watch.onChange(listener);
  }

  /** Asks the child for updates of `uri` until released; a sleeping child is asked when it next comes up. */
  watchResource(uri: string): () => void {
    return this.#watch.watchResource(uri);
  }

  /** Marks the server used now: the idle timer starts over and a crash loop is not unattended. */
  touch(): void {
    this.supervisor.used();
    this.#armIdleTimer();
  }

  /**
   * The connected client, starting the child when needed. Concurrent callers share one
   * start, so N first uses start one process. Counts as a use (see `touch`). Rejects with
   * a HubError naming the server and the reason when the child did not come up.
   */
  ensureUp(): Promise<Client> {
    const blocked = this.#environment.blocked;
    if (blocked !== undefined) return Promise.reject(new HubError(HUB_ERROR_CODES.CHILD_START_FAILED, `server "${this.name}" could not start: ${blocked}`));
    this.touch();
    const connection = this.#starter.connection;
    if (connection && this.#status === 'up') return Promise.resolve(connection.client);
    return this.#starter.start('wake');
  }

  /** Runs `work` against the woken child's client; the server does not idle out while it runs. */
  withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    return this.withConnection((connection) => work(connection.client));
  }

  /** Runs `work` against the woken child's connection; the server does not idle out while it runs. */
  async withConnection<T>(work: (connection: ChildConnection) => Promise<T>): Promise<T> {
    const entered = this.enterCall();
    const connection = entered instanceof Promise ? await entered : entered;
    try {
      return await work(connection);
    } finally {
      this.leaveCall();
    }
  }

  /**
   * `withConnection` in two halves, for the tool call's hot path (core/calls/carry.ts): the
   * woken child's connection, counted as a call running on it, without a promise when the
   * child is up already (a promise and a closure per call less). Every connection it gives
   * must be handed back with `leaveCall` once the work is over; a failure counts no call.
   */
  enterCall(): ChildConnection | Promise<ChildConnection> {
    const blocked = this.#environment.blocked;
    if (blocked === undefined && this.#status === 'up') {
      const connection = this.#starter.connection;
      if (connection) {
        this.touch();
        this.#inFlight += 1;
        return connection;
      }
    }
    return this.ensureUp().then(() => {
      const connection = this.#starter.connection;
      if (!connection) throw new HubError(HUB_ERROR_CODES.CHILD_DISCONNECTED, `server "${this.name}" disconnected`);
      this.#inFlight += 1;
      return connection;
    });
  }

  /** Ends a call `enterCall` counted: the idle timer starts over, and a drain waiting for the last call goes on. */
  leaveCall(): void {
    this.#inFlight -= 1;
    this.touch();
    if (this.#inFlight === 0 && this.#idle.length > 0) this.#idle.splice(0).forEach((resolve) => resolve());
  }

  /**
   * Hears the child's log messages (`notifications/message`) until the returned function is
   * called, for a call whose caller asked for them. Nothing on the wire says which request
   * a log message belongs to (a stdio child's share one stream), so only those sent while
   * that call is the one request in flight on the child are passed on: one sent beside
   * another request could be another caller's, and is dropped.
   */
  hearLogs(listener: (message: LoggingMessageNotificationParams) => void): () => void {
    this.#logListeners.add(listener);
    return () => this.#logListeners.delete(listener);
  }

  /**
   * Stops the server once the calls running on it have finished (a reload removed or
   * changed it; it is already out of the registry, so no new call arrives).
   */
  async drain(): Promise<void> {
    while (this.#inFlight > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
    await this.disconnect('stopped');
  }

  /** Puts an on-demand server to sleep at once; the next use starts it again. */
  async sleep(): Promise<void> {
    if (this.alwaysRunning) throw new HubError(HUB_ERROR_CODES.CHILD_ALWAYS_RUNNING, `server "${this.name}" is always running`);
    if (this.#status === 'sleeping') return;
    this.log.info('server going to sleep');
    await this.disconnect('sleeping');
  }

  /**
   * Ends the connection (and any start under way) and starts the server again, as an
   * operator's restart does; calls in flight end with the connection. Rejects as
   * `ensureUp` does when it does not come back.
   */
  async restart(): Promise<void> {
    this.log.info('server restarting on request');
    await this.#rest('stopped');
    await this.ensureUp();
  }

  /**
   * Applies an entry that differs from the running one only in keys the hub applies
   * itself (`HUB_SIDE_KEYS`), without a restart; callers hear of the changed tool list.
   */
  retune(entry: ServerEntry): void {
    this.retuneEntry({ ...entry, type: this.entry.type });
    this.#visibility = new ToolVisibility(this.entry, this.#environment.gates, this.view);
    // What the gates now say of the server (a key they read, such as `pinTools`, may have
    // changed; a tool the filter now lets through was never reviewed) holds from here on.
    const gates = this.#environment.gates;
    if (gates !== undefined && !gates.open) {
      if (this.toolsKnown) gates.review(this.view, this.#visibility.filtered(this.listedTools));
      this.#reviewInstructions(this.instructions);
    }
    this.#watch.emit({ kind: 'tools' });
  }

  /** Re-reads the tool list from the child (all pages). */
  async refreshTools(): Promise<void> {
    this.forgetFaces();
    await this.#refreshTools();
  }

  /** Re-reads the tool list; true when it changed (and its listeners were told). */
  async #refreshTools(): Promise<boolean> {
    const client = this.#starter.connection?.client;
    if (!client) return false;
    return this.#setTools(await listAllTools(client, client.getServerCapabilities()));
  }

  /**
   * Ends the connection (and any start under way); the status says why (`sleeping` for
   * idle, `stopped` at shutdown). Resolves once whatever ran behind it has ended.
   */
  disconnect(status: RestingStatus): Promise<void> {
    return this.#rest(status);
  }

  /**
   * The upstream wants a login that only the operator can give (outbound OAuth): the
   * connection ends and the server shows `unauthorized` until the next use or a login
   * starts it again.
   */
  async requireLogin(reason: string): Promise<void> {
    if (this.#status === 'unauthorized' && this.#starter.connection === undefined) return;
    this.log.warn({ reason }, 'server needs an operator login');
    await this.#rest('unauthorized', reason);
  }

  /**
   * The one place the status and the last error change (see `nextChildState`), with what
   * goes with a step: observers hear it, a server that came up is supervised and may idle
   * out, one that crashed is handed to the supervisor, one put to rest has no timer left.
   */
  #transition(to: ChildStatus, reason?: string): void {
    const from = this.#status;
    ({ status: this.#status, lastError: this.#lastError } = nextChildState(this.name, { status: from, lastError: this.#lastError }, to, reason));
    this.log.debug({ from, to, reason }, 'server status changed');
    notifyObservers(this.#environment.observers, this.log, (observer) => observer.transition?.(this, { from, to, reason }));
    if (to === 'up') {
      this.supervisor.up();
      this.#armIdleTimer();
    } else if (from === 'up' && to === 'down') {
      this.supervisor.crashed(reason ?? 'the connection ended');
    } else if (to !== 'starting' && to !== 'down') {
      this.supervisor.cancel();
      this.#clock.clearTimeout(this.#idleTimer);
    }
  }

  /** Ends the connection and any start under way, and puts the server in `status`. */
  async #rest(status: RestingStatus, reason?: string): Promise<void> {
    const released = this.#starter.release(status);
    this.#stopLearning.abort();
    this.#stopLearning = new AbortController();
    const learning = [...this.#learning.values()];
    this.#watch.detach();
    this.#transition(status, reason);
    await Promise.allSettled([released, ...learning]);
  }

  #prepare(connection: ChildConnection, wire: ChildWire): void {
    this.#stderrTail = connection.stderrTail?.bind(connection);
    connection.client.setNotificationHandler('notifications/tools/list_changed', async () => {
      if (this.#starter.connection !== connection) return;
      const changed = await this.#refreshTools().catch((error: unknown) => this.log.warn({ err: errorMessage(error) }, 'tool list refresh failed'));
      // The child says its list changed: callers hear so even when it reads the same to the hub.
      if (changed !== true) this.#watch.emit({ kind: 'tools' });
    });
    connection.client.setNotificationHandler('notifications/message', (notification) => {
      if (this.#starter.connection !== connection || this.#inFlight !== 1 || this.#logListeners.size !== 1) return;
      for (const listener of this.#logListeners) listener(notification.params);
    });
    this.#watch.listenTo(connection.client, wire);
  }

  #adopt(client: Client, tools: Tool[]): void {
    this.adoptIdentity(client);
    this.#reviewInstructions(this.instructions);
    this.#transition('up');
    this.#setTools(tools);
    this.saveSnapshot(this.#starter.negotiation);
    // The watch is a side channel: nothing a caller waits for hangs on its acknowledgement.
    this.#watch.startWatching(client);
  }

  /** The connection ended without being asked to: the supervisor decides what follows. */
  #onClosed(reason: string): void {
    this.#watch.detach();
    this.log.warn({ reason }, 'child connection closed');
    this.#transition('down', reason);
  }

  #setTools(tools: Tool[]): boolean {
    if (!this.updateTools(tools)) return false;
    this.saveSnapshot(this.#starter.negotiation);
    this.#watch.emit({ kind: 'tools' });
    return true;
  }

  /** Sleeps an on-demand server once it has been unused for the idle timeout. */
  #armIdleTimer(): void {
    const clock = this.#clock;
    clock.clearTimeout(this.#idleTimer);
    const { idleTimeoutMs } = this.#environment.timings();
    if (this.alwaysRunning || idleTimeoutMs === 0) return;
    this.#idleTimer = clock.setTimeout(() => {
      if (this.#inFlight > 0 || this.#status === 'starting') {
        this.#armIdleTimer();
        return;
      }
      if (this.#status !== 'up' && this.#status !== 'down') return;
      this.log.info('server idle');
      void this.sleep();
    }, idleTimeoutMs);
  }
}
