import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Client, DiscoverResult, Implementation, PriorDiscovery, ProtocolEra, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEntry } from '../config/schema.js';
import { observe } from '../observe.js';
import { ChildEndedError, type ChildConnection, type ChildType } from './child-type.js';
import { LoginRequiredError } from './remote/auth.js';
import { startPings } from './ping.js';
import type { EraVerdict, Snapshot, SnapshotStore } from './snapshot.js';
import { Supervisor } from './supervisor.js';
import { backoffDelay, DEFAULT_CHILD_TIMINGS, type ChildTimings } from './timings.js';
import { createToolFilter } from './tool-filter.js';
import { ChildWatch, type ChildChange } from './watch.js';

export type ChildStatus = 'starting' | 'up' | 'down' | 'stopped' | 'sleeping' | 'unauthorized';

/** Statuses in which a server with a last error is in trouble rather than resting. */
const TROUBLED = new Set<ChildStatus>(['down', 'stopped', 'unauthorized']);

/** What the registry hands every child: the current timings and where snapshots go. */
export interface ChildEnvironment {
  timings(): ChildTimings;
  /** Absent for types that keep no snapshot. */
  snapshots?: SnapshotStore;
}

/**
 * A legacy verdict is trusted for a day: an upgraded server still answers `initialize`,
 * so only age ever retires it (see the SDK's gateway guide).
 */
const LEGACY_VERDICT_TTL_MS = 24 * 60 * 60 * 1000;

/** One connect attempt: what it produced so far, so an abort can end exactly that. */
interface Attempt {
  connection: ChildConnection | undefined;
  closedEarly: string | undefined;
  adopted: boolean;
  discarded: boolean;
}

/**
 * One configured server. It owns its status, the in-memory tool list (refreshed when
 * the child says its list changed), the allow/deny filter, the idle timer, the
 * single-flight budgeted wake, supervision and the on-disk snapshot. Everything that
 * answers about children reads this object, never the wire, unless it is a call.
 */
export class Child {
  #status: ChildStatus | undefined;
  lastError: string | undefined;
  /** The child's own identity (name, version, title, icons, website) as it last stated it; kept while it sleeps. */
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** What the child advertised on its last connection; kept while it sleeps. */
  capabilities: ServerCapabilities | undefined;
  readonly supervisor: Supervisor;
  #tools: Tool[] = [];
  /** Whether a tool list was ever seen (a connection or a snapshot); an empty list can be real. */
  #toolsKnown = false;
  #connection: ChildConnection | undefined;
  #starting: Promise<Client> | undefined;
  #startingRetries = false;
  #verdict: EraVerdict | undefined;
  /** Bumped by every disconnect, so a start that began before it does not commit. */
  #generation = 0;
  #stopSignal = new AbortController();
  #stopPings: () => void = () => undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #inFlight = 0;
  /** Resolved when the last call in flight ends (see `drain`). */
  #idle: (() => void)[] = [];
  /** A start that failed because the child ended before its handshake, and when. */
  #lastEnded: { error: Error; at: number } | undefined;
  readonly #watch: ChildWatch;
  readonly #isToolAllowed: (toolName: string) => boolean;
  readonly #environment: ChildEnvironment;

  constructor(
    readonly name: string,
    readonly entry: ServerEntry,
    readonly childType: ChildType,
    readonly log: FastifyBaseLogger,
    environment: ChildEnvironment = { timings: () => DEFAULT_CHILD_TIMINGS },
  ) {
    this.#isToolAllowed = createToolFilter(entry);
    this.#environment = environment;
    this.#watch = new ChildWatch(name, log);
    this.status = this.alwaysRunning ? 'down' : 'sleeping';
    this.supervisor = new Supervisor(
      {
        name,
        alwaysRunning: this.alwaysRunning,
        log,
        restart: async () => {
          try {
            await this.#startShared(false);
          } catch (error) {
            // A server waiting for a login is not crashing: nothing restarts it but a login.
            if (this.status !== 'unauthorized') throw error;
          }
        },
        park: (reason) => {
          this.lastError = reason;
          void this.disconnect('stopped');
        },
      },
      environment.timings,
    );
  }

  get status(): ChildStatus {
    return this.#status as ChildStatus;
  }

  /** Every change of status is published (core/observe.ts): metrics and the status page follow it. */
  set status(status: ChildStatus) {
    const from = this.#status;
    this.#status = status;
    if (from !== status && observe.childStatus.active) observe.childStatus.publish({ child: this, from, to: status });
  }

  get alwaysRunning(): boolean {
    return this.childType.alwaysRunning(this.entry);
  }

  /** Servers with `hub: false` stay out of `/hub`'s aggregate. */
  get hidden(): boolean {
    return this.entry.hub === false;
  }

  /** The child's advertised title, for `list_servers`. */
  get title(): string | undefined {
    return this.serverInfo?.title;
  }

  /** Why the server is not serving (it failed and is down, parked, or awaits a login), if it is not. */
  get problem(): string | undefined {
    return TROUBLED.has(this.status) ? this.lastError : undefined;
  }

  get description(): string {
    return this.title ?? this.name;
  }

  /**
   * The MCP era spoken with the child: the live connection's, otherwise the verdict
   * remembered from the last connect (also across restarts, through the snapshot).
   */
  get era(): ProtocolEra | undefined {
    return this.#connection?.client.getProtocolEra() ?? this.#verdict?.kind;
  }

  /**
   * Whether the child's questions come back as results (a 2026-07-28 connection), so a
   * caller can answer them on a retry; a 2025 child asks mid-call, on a held connection.
   */
  get asksByResult(): boolean {
    return this.era === 'modern';
  }

  /** The tools that survive the allow/deny filter. */
  get tools(): Tool[] {
    return this.#tools.filter((tool) => this.#isToolAllowed(tool.name));
  }

  /** Whether the tool list was ever seen; until then `tools` is empty without meaning "no tools". */
  get toolsKnown(): boolean {
    return this.#toolsKnown;
  }

  isToolAllowed(toolName: string): boolean {
    return this.#isToolAllowed(toolName);
  }

  findTool(toolName: string): Tool | undefined {
    return this.isToolAllowed(toolName) ? this.#tools.find((tool) => tool.name === toolName) : undefined;
  }

  /** Adopts a tool list known without a connection. */
  adoptTools(tools: Tool[]): void {
    this.#tools = tools;
    this.#toolsKnown = true;
  }

  /** Adopts what a snapshot on disk says, so a sleeping server answers listing. */
  adoptSnapshot(snapshot: Snapshot): void {
    this.serverInfo = snapshot.serverInfo ?? (snapshot.title === undefined ? undefined : { name: this.name, version: '', title: snapshot.title });
    this.instructions = snapshot.instructions;
    this.capabilities = snapshot.capabilities;
    this.#tools = snapshot.tools as Tool[];
    this.#toolsKnown = true;
    this.#verdict = snapshot.verdict;
  }

  /**
   * Starts a server whose tool list was never seen (no snapshot, never up): its first
   * listing or call is its first use. Once a list is known, answers come from the cache
   * and nothing wakes for them.
   */
  async ensureToolsKnown(): Promise<void> {
    if (!this.#toolsKnown) await this.ensureUp();
  }

  /**
   * Called on every change the child reports: its tool list (after the hub refreshed it,
   * also when a restart brought a different list), its prompt or resource list, or an
   * update of a watched resource. Returns the unsubscribe.
   */
  onChange(listener: (change: ChildChange) => void): () => void {
    return this.#watch.onChange(listener);
  }

  /**
   * Asks the child for updates of `uri` (a caller's subscription named it) until the
   * returned release is called. A sleeping child is asked when it next comes up.
   */
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
   * an Error naming the server and the reason when the child did not come up.
   */
  ensureUp(): Promise<Client> {
    this.touch();
    if (this.#connection && this.status === 'up') return Promise.resolve(this.#connection.client);
    return this.#startShared(true);
  }

  /** Runs `work` against the woken child's client; the server does not idle out while it runs. */
  withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    return this.withConnection((connection) => work(connection.client));
  }

  /** Runs `work` against the woken child's connection; the server does not idle out while it runs. */
  async withConnection<T>(work: (connection: ChildConnection) => Promise<T>): Promise<T> {
    await this.ensureUp();
    const connection = this.#connection;
    if (!connection) throw new Error(`server "${this.name}" disconnected`);
    this.#inFlight += 1;
    try {
      return await work(connection);
    } finally {
      this.#inFlight -= 1;
      this.touch();
      if (this.#inFlight === 0) this.#idle.splice(0).forEach((resolve) => resolve());
    }
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
    if (this.alwaysRunning) throw new Error(`server "${this.name}" is always running`);
    if (this.status === 'sleeping') return;
    this.log.info('server going to sleep');
    await this.disconnect('sleeping');
  }

  /** Re-reads the tool list from the child (all pages). */
  async refreshTools(): Promise<void> {
    const client = this.#connection?.client;
    if (!client) return;
    this.#setTools(await listAllTools(client));
  }

  /**
   * Ends the connection (and any start under way); the status says why (`sleeping` for
   * idle, `stopped` at shutdown). Resolves once whatever ran behind it has ended.
   */
  async disconnect(status: ChildStatus): Promise<void> {
    this.#generation += 1;
    this.#stopSignal.abort(new Error(`server "${this.name}" was ${status === 'sleeping' ? 'put to sleep' : 'stopped'} while starting`));
    this.#stopSignal = new AbortController();
    this.supervisor.cancel();
    this.#stopPings();
    clearTimeout(this.#idleTimer);
    const connection = this.#connection;
    const starting = this.#starting;
    this.#connection = undefined;
    this.#watch.detach();
    this.status = status;
    await connection?.close().catch((error: Error) => this.log.warn({ err: error.message }, 'closing the child failed'));
    await starting?.catch(() => undefined);
  }

  /**
   * The upstream wants a login that only the operator can give (outbound OAuth): the
   * connection ends and the server shows `unauthorized` until the next use or a login
   * starts it again.
   */
  async requireLogin(reason: string): Promise<void> {
    if (this.status === 'unauthorized' && this.#connection === undefined) return;
    this.log.warn({ reason }, 'server needs an operator login');
    await this.disconnect('unauthorized');
    this.lastError = reason;
  }

  /**
   * The one start under way, or a new one. A use (`retry`) keeps trying for the whole
   * budget; a supervisor restart makes a single attempt, because the supervisor does its
   * own back-off and counts the failures. A use that finds a single attempt under way
   * waits for it and, if it fails, goes on with a full wake.
   */
  #startShared(retry: boolean): Promise<Client> {
    this.supervisor.cancel();
    // A child that just ended before its handshake would end the same way: callers in the
    // next moments get that answer instead of each spawning the broken command again.
    const ended = this.#lastEnded;
    if (ended && !this.#starting && Date.now() - ended.at < this.#environment.timings().failedStartMemoryMs) return Promise.reject(ended.error);
    if (this.#starting && retry && !this.#startingRetries) return this.#starting.catch(() => this.#startShared(true));
    if (!this.#starting) {
      this.#startingRetries = retry;
      this.#starting = this.#wake(retry).finally(() => {
        this.#starting = undefined;
      });
    }
    return this.#starting;
  }

  /** Brings the child up within the wake budget, trying again after a back-off when `retry`. */
  async #wake(retry: boolean): Promise<Client> {
    const generation = this.#generation;
    const stop = this.#stopSignal.signal;
    const timings = this.#environment.timings();
    const deadline = Date.now() + timings.wakeBudgetMs;
    this.status = 'starting';
    let reason = 'it did not start';
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#attempt(deadline, generation, stop);
      } catch (error) {
        if (generation !== this.#generation) throw error;
        if (error instanceof ChildEndedError) {
          // Trying again within this wake would end the same way: say why at once.
          this.status = 'down';
          this.lastError = error.message;
          this.#verdict = undefined;
          this.log.warn({ err: error.message }, 'server could not start');
          const failed = new Error(`server "${this.name}" could not start: ${error.message}`);
          this.#lastEnded = { error: failed, at: Date.now() };
          throw failed;
        }
        if (error instanceof LoginRequiredError) {
          // No retry can help until someone logs in; say so at once instead of after the budget.
          this.status = 'unauthorized';
          this.lastError = error.message;
          this.log.warn({ reason: error.message }, 'server needs an operator login');
          throw new Error(`server "${this.name}" is unauthorized: ${error.message}`);
        }
        reason = (error as Error).message;
        this.lastError = reason;
        this.#verdict = undefined;
        this.log.warn({ attempt, err: reason }, 'server start failed');
      }
      // Another try only when it would have time left: the reason reported stays the last real one.
      const wait = backoffDelay(attempt, timings);
      if (!retry || Date.now() + wait >= deadline) break;
      await sleepFor(wait, undefined, { signal: stop }).catch(() => undefined);
      if (generation !== this.#generation) throw stop.reason as Error;
    }
    this.status = 'down';
    this.lastError = reason;
    throw new Error(`server "${this.name}" did not start within ${formatSeconds(timings.wakeBudgetMs)}: ${reason}`);
  }

  /** One connect and tool listing, bounded by the deadline and ended by a disconnect. */
  async #attempt(deadline: number, generation: number, stop: AbortSignal): Promise<Client> {
    const controller = new AbortController();
    const budget = Math.max(0, deadline - Date.now());
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${formatSeconds(budget)}`)), budget);
    const onStop = (): void => controller.abort(stop.reason);
    stop.addEventListener('abort', onStop, { once: true });
    const attempt: Attempt = { connection: undefined, closedEarly: undefined, adopted: false, discarded: false };
    try {
      const aborted = new Promise<never>((_, reject) => {
        if (controller.signal.aborted) reject(controller.signal.reason as Error);
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
      });
      return await Promise.race([this.#connectAndList(attempt, controller.signal, generation), aborted]);
    } catch (error) {
      await this.#discard(attempt);
      throw error;
    } finally {
      clearTimeout(timer);
      stop.removeEventListener('abort', onStop);
    }
  }

  async #connectAndList(attempt: Attempt, signal: AbortSignal, generation: number): Promise<Client> {
    const connection = await this.childType.connect(this.entry, {
      name: this.name,
      log: this.log,
      signal,
      prior: this.#prior(),
      onClosed: (reason) => {
        if (attempt.adopted) this.#onClosed(connection, reason);
        else attempt.closedEarly ??= reason;
      },
    });
    attempt.connection = connection;
    if (signal.aborted) return this.#abandon(attempt, signal);
    const { client } = connection;
    client.setNotificationHandler('notifications/tools/list_changed', async () => {
      if (this.#connection !== connection) return;
      await this.refreshTools().catch((error: Error) => this.log.warn({ err: error.message }, 'tool list refresh failed'));
    });
    this.#watch.listenTo(client);
    const tools = await listAllTools(client);
    if (signal.aborted) return this.#abandon(attempt, signal);
    if (attempt.closedEarly !== undefined) throw new Error(attempt.closedEarly);
    if (generation !== this.#generation) throw new Error(`server "${this.name}" was stopped while starting`);

    attempt.adopted = true;
    this.#connection = connection;
    this.#recordVerdict(client);
    this.serverInfo = client.getServerVersion() ?? this.serverInfo;
    this.instructions = client.getInstructions() ?? this.instructions;
    this.capabilities = client.getServerCapabilities() ?? this.capabilities;
    this.status = 'up';
    this.lastError = undefined;
    this.#lastEnded = undefined;
    this.#setTools(tools);
    this.#saveSnapshot();
    // The watch is a side channel: nothing a caller waits for hangs on its acknowledgement.
    this.#watch.startWatching(client);
    const timings = this.#environment.timings();
    this.#stopPings = startPings(client, timings.pingIntervalMs, timings.pingTimeoutMs, (reason) => {
      if (this.#connection !== connection) return;
      this.#onClosed(connection, reason);
      void connection.close().catch(() => undefined);
    });
    this.supervisor.up();
    this.#armIdleTimer();
    return client;
  }

  async #abandon(attempt: Attempt, signal: AbortSignal): Promise<never> {
    await this.#discard(attempt);
    throw signal.reason as Error;
  }

  /** Closes what an unsuccessful attempt opened, once. */
  async #discard(attempt: Attempt): Promise<void> {
    if (attempt.adopted || attempt.discarded || !attempt.connection) return;
    attempt.discarded = true;
    await attempt.connection.close().catch(() => undefined);
  }

  /** The connection ended without being asked to: the supervisor decides what follows. */
  #onClosed(connection: ChildConnection, reason: string): void {
    if (connection !== this.#connection) return;
    this.#connection = undefined;
    this.#watch.detach();
    this.#stopPings();
    this.status = 'down';
    this.lastError = reason;
    this.log.warn({ reason }, 'child connection closed');
    this.supervisor.crashed(reason);
  }

  #prior(): PriorDiscovery | undefined {
    const verdict = this.#verdict;
    if (!verdict) return undefined;
    if (verdict.kind === 'modern') return verdict.discover ? { kind: 'modern', discover: verdict.discover as DiscoverResult } : undefined;
    return Date.now() - verdict.at < LEGACY_VERDICT_TTL_MS ? { kind: 'legacy' } : undefined;
  }

  #recordVerdict(client: Client): void {
    const discover = client.getDiscoverResult();
    if (discover) {
      this.#verdict = { kind: 'modern', discover: discover as Record<string, unknown>, at: Date.now() };
    } else if (this.#verdict?.kind !== 'legacy' || this.#prior() === undefined) {
      this.#verdict = { kind: 'legacy', at: Date.now() };
    }
  }

  #setTools(tools: Tool[]): void {
    const changed = JSON.stringify(tools) !== JSON.stringify(this.#tools);
    this.#tools = tools;
    this.#toolsKnown = true;
    if (!changed) return;
    this.#saveSnapshot();
    this.#watch.emit({ kind: 'tools' });
  }

  #saveSnapshot(): void {
    void this.#environment.snapshots?.save({
      version: 1,
      name: this.name,
      ...(this.serverInfo === undefined ? {} : { serverInfo: this.serverInfo }),
      ...(this.instructions === undefined ? {} : { instructions: this.instructions }),
      ...(this.capabilities === undefined ? {} : { capabilities: this.capabilities }),
      tools: this.#tools,
      ...(this.#verdict === undefined ? {} : { verdict: this.#verdict }),
    });
  }

  /** Sleeps an on-demand server once it has been unused for the idle timeout. */
  #armIdleTimer(): void {
    clearTimeout(this.#idleTimer);
    const { idleTimeoutMs } = this.#environment.timings();
    if (this.alwaysRunning || idleTimeoutMs === 0) return;
    this.#idleTimer = setTimeout(() => {
      if (this.#inFlight > 0 || this.status === 'starting') {
        this.#armIdleTimer();
        return;
      }
      if (this.status !== 'up' && this.status !== 'down') return;
      this.log.info('server idle');
      void this.sleep();
    }, idleTimeoutMs);
    this.#idleTimer.unref();
  }
}

async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
