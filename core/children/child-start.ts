import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Client, PriorDiscovery, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEntry } from '../config/schema.js';
import { HUB_ERROR_CODES, HubError, errorMessage } from '../errors.js';
import { ChildEndedError, type ChildConnection, type ChildType } from './child-type.js';
import type { ChildStartEvent, StartReason } from './child-observer.js';
import type { ChildClock } from './clock.js';
import type { ChildStatus, RestingStatus } from './child-states.js';
import type { ChildWire, RememberedNegotiation } from '../revisions/revision.js';
import { startPings } from './ping.js';
import { Supervisor } from './supervisor.js';
import { backoffDelay, type ChildTimings } from './timings.js';
import { LoginRequiredError } from './client/upstream-auth.js';
import type { ChildWires } from './wires.js';

/**
 * How long a stop waits for a connect it ended to settle: a stdio child that ignores its
 * closed stdin is signalled after 2 s and killed after 4 s (the SDK's transport).
 */
const SETTLING_BOUND_MS = 10_000;

/** What starting needs from the child it starts. */
export interface StartHost {
  readonly name: string;
  readonly entry: ServerEntry;
  readonly childType: ChildType;
  readonly log: FastifyBaseLogger;
  readonly alwaysRunning: boolean;
  status(): ChildStatus;
  /** The revisions the hub speaks to children. */
  readonly wires: ChildWires;
  /** Relative paths in the entry are resolved against it. */
  readonly configDirectory: string;
  timings(): ChildTimings;
  clock(): ChildClock;
  transition(to: ChildStatus, reason?: string): void;
  /** Supervision gives up on a crash-looping child: it is parked as `stopped` with this reason. */
  park(reason: string): void;
  /** Readies a connection before its first request (handlers for what the child announces), on the revision it negotiated. */
  prepare(connection: ChildConnection, wire: ChildWire): void;
  /** Takes a client that connected and listed its tools: the child is up. */
  adopt(client: Client, tools: Tool[]): void;
  /** The adopted connection ended without being asked to (it closed, or stopped answering pings). */
  closed(reason: string): void;
  started(event: ChildStartEvent): void;
}

/** One connect attempt: what it produced so far, so an abort can end exactly that. */
interface Attempt {
  connection: ChildConnection | undefined;
  closedEarly: string | undefined;
  adopted: boolean;
  discarded: boolean;
}

/**
 * Brings one child up and holds the connection it got: the single-flight wake within the
 * budget, each attempt's connect and tool listing, adopting the connection or closing what
 * a failed attempt opened, the fail-fast rules (a child that ends before its handshake or
 * wants a login is not retried), the negotiation handed to the next connect as its prior,
 * the pings that tell a live connection from a hung one, and the supervisor that restarts
 * a child that ended on its own.
 */
export class ChildStarter {
  readonly supervisor: Supervisor;
  /** The adopted connection, until it ends or is released. */
  connection: ChildConnection | undefined;
  #stopPings: () => void = noop;
  #starting: Promise<Client> | undefined;
  #startingReason: StartReason = 'wake';
  /** What the last connect (or the snapshot) negotiated, handed to the next as its prior. */
  negotiation: RememberedNegotiation | undefined;
  /** Bumped by every cancel, so a start that began before it does not commit. */
  #generation = 0;
  #stopSignal = new AbortController();
  /** Said once per server: a server no enabled revision reaches stays so until the config changes. */
  #warnedUnspoken = false;
  /** A start that failed because the child ended before its handshake, and when. */
  #lastEnded: { error: Error; at: number } | undefined;
  /** Connects still settling after their attempt gave up on them: what they started is ended only when they have. */
  readonly #settling = new Set<Promise<unknown>>();

  constructor(private readonly host: StartHost) {
    this.supervisor = new Supervisor(
      {
        name: host.name,
        alwaysRunning: host.alwaysRunning,
        log: host.log,
        restart: async () => {
          // A use brought it up meanwhile.
          if (this.connection) return;
          try {
            await this.start('restart');
          } catch (error) {
            // A server waiting for a login is not crashing: nothing restarts it but a login.
            // Nor is one put to rest while its restart was under way (the hub's stop ends the
            // start): taken as a crash, it would be restarted after the hub closed, orphaned.
            const status = host.status();
            if (status !== 'unauthorized' && status !== 'stopped' && status !== 'sleeping') throw error;
          }
        },
        park: (reason) => host.park(reason),
      },
      () => host.timings(),
      () => host.clock(),
    );
  }

  get wires(): ChildWires {
    return this.host.wires;
  }

  /** The revision spoken: the live connection's, otherwise the one remembered from the last connect. */
  get revision(): string | undefined {
    return this.connection?.client.getNegotiatedProtocolVersion() ?? this.negotiation?.revision;
  }

  /**
   * The one start under way, or a new one. A wake keeps trying for the whole budget; a
   * supervision restart makes a single attempt, because the supervisor does its own
   * back-off and counts the failures. A wake that finds a restart under way waits for it
   * and, if it fails, goes on with a full wake.
   */
  start(reason: StartReason): Promise<Client> {
    this.supervisor.cancel();
    // A child that just ended before its handshake would end the same way: callers in the
    // next moments get that answer instead of each spawning the broken command again.
    const ended = this.#lastEnded;
    if (ended && !this.#starting && Date.now() - ended.at < this.host.timings().failedStartMemoryMs) return Promise.reject(ended.error);
    if (this.#starting && reason === 'wake' && this.#startingReason === 'restart') return this.#starting.catch(() => this.start('wake'));
    if (!this.#starting) {
      this.#startingReason = reason;
      this.#starting = this.#observed(reason).finally(() => {
        this.#starting = undefined;
      });
    }
    return this.#starting;
  }

  /**
   * Ends the connection and any start under way: the child is being put to rest as
   * `status`. What was running is told to end now; the promise resolves once it has.
   */
  release(status: RestingStatus): Promise<void> {
    this.#generation += 1;
    this.#stopSignal.abort(new HubError(HUB_ERROR_CODES.CHILD_START_CANCELLED, `server "${this.host.name}" was ${status === 'sleeping' ? 'put to sleep' : 'stopped'} while starting`));
    this.#stopSignal = new AbortController();
    this.#stopPings();
    const { connection } = this;
    this.connection = undefined;
    const closing = connection?.close().catch((error: unknown) => this.host.log.warn({ err: errorMessage(error) }, 'closing the child failed'));
    const starting = this.#starting;
    return (async () => {
      await closing;
      await starting?.catch(noop);
      // A process that was starting is gone, not orphaned, when a stop (at shutdown) resolves;
      // a child type whose connect ignores its abort signal holds the stop for a bounded time.
      if (this.#settling.size > 0 && !(await settledWithin([...this.#settling], SETTLING_BOUND_MS))) {
        this.host.log.warn({ boundMs: SETTLING_BOUND_MS }, 'a connect that was started did not end when it was told to');
      }
    })();
  }

  async #observed(reason: StartReason): Promise<Client> {
    const generation = this.#generation;
    const began = performance.now();
    const report = (outcome: ChildStartEvent['outcome']): void => this.host.started({ reason, outcome, durationMs: performance.now() - began });
    try {
      const client = await this.#wake(reason === 'wake');
      report('up');
      return client;
    } catch (error) {
      report(generation === this.#generation ? 'failed' : 'cancelled');
      throw error;
    }
  }

  /** Brings the child up within the wake budget, trying again after a back-off when `retry`. */
  async #wake(retry: boolean): Promise<Client> {
    const { host } = this;
    const generation = this.#generation;
    const stop = this.#stopSignal.signal;
    const timings = host.timings();
    const deadline = Date.now() + timings.wakeBudgetMs;
    host.transition('starting');
    let reason = 'it did not start';
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#attempt(deadline, generation, stop);
      } catch (error) {
        if (generation !== this.#generation) throw error;
        if (error instanceof ChildEndedError) {
          // Trying again within this wake would end the same way: say why at once.
          this.negotiation = undefined;
          host.log.warn({ err: error.message }, 'server could not start');
          host.transition('down', error.message);
          const failed = new HubError(HUB_ERROR_CODES.CHILD_START_FAILED, `server "${host.name}" could not start: ${error.message}`, { cause: error });
          this.#lastEnded = { error: failed, at: Date.now() };
          throw failed;
        }
        if (error instanceof LoginRequiredError) {
          // No retry can help until someone logs in; say so at once instead of after the budget.
          host.log.warn({ reason: error.message }, 'server needs an operator login');
          host.transition('unauthorized', error.message);
          throw new HubError(HUB_ERROR_CODES.CHILD_UNAUTHORIZED, `server "${host.name}" is unauthorized: ${error.message}`, { cause: error });
        }
        // An attempt cut short by the end of the budget says only that: the reason worth
        // reporting is the last real failure before it (a 401, a refused connection).
        const cutByBudget = error instanceof HubError && error.code === HUB_ERROR_CODES.CHILD_NO_ANSWER;
        if (!cutByBudget || attempt === 1) reason = (error as Error).message;
        this.negotiation = undefined;
        host.log.warn({ attempt, err: (error as Error).message }, 'server start failed');
      }
      // Another try only when it would have time left: the reason reported stays the last real one.
      const wait = backoffDelay(attempt, timings);
      if (!retry || Date.now() + wait >= deadline) break;
      host.transition('starting', reason);
      await sleepFor(wait, undefined, { signal: stop }).catch(() => undefined);
      if (generation !== this.#generation) throw stop.reason as Error;
    }
    host.transition('down', reason);
    throw new HubError(
      HUB_ERROR_CODES.CHILD_START_TIMEOUT,
      `server "${host.name}" did not start within ${formatSeconds(
        timings.wakeBudgetMs,
      )}: ${reason}; a server that needs longer (a first npx run downloads its package) can be given more: set "startTimeoutMs" in its entry`,
    );
  }

  /** One connect and tool listing, bounded by the deadline and ended by a cancel. */
  async #attempt(deadline: number, generation: number, stop: AbortSignal): Promise<Client> {
    const controller = new AbortController();
    const budget = Math.max(0, deadline - Date.now());
    const timer = setTimeout(() => controller.abort(new HubError(HUB_ERROR_CODES.CHILD_NO_ANSWER, `no answer within ${formatSeconds(budget)}`)), budget);
    const onStop = (): void => controller.abort(stop.reason);
    stop.addEventListener('abort', onStop, { once: true });
    const attempt: Attempt = { connection: undefined, closedEarly: undefined, adopted: false, discarded: false };
    try {
      const aborted = new Promise<never>((_, reject) => {
        if (controller.signal.aborted) reject(controller.signal.reason as Error);
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), { once: true });
      });
      const connecting = this.#connectAndList(attempt, controller.signal, generation);
      this.#settling.add(connecting);
      void connecting.catch(noop).finally(() => this.#settling.delete(connecting));
      return await Promise.race([connecting, aborted]);
    } catch (error) {
      await this.#discard(attempt);
      throw error;
    } finally {
      clearTimeout(timer);
      stop.removeEventListener('abort', onStop);
    }
  }

  async #connectAndList(attempt: Attempt, signal: AbortSignal, generation: number): Promise<Client> {
    const { host } = this;
    const connection = await host.childType.connect(host.entry, {
      name: host.name,
      log: host.log,
      signal,
      prior: this.#prior(),
      wires: host.wires,
      configDirectory: host.configDirectory,
      onClosed: (reason) => {
        if (attempt.adopted) this.#closed(connection, reason);
        else attempt.closedEarly ??= reason;
      },
    });
    attempt.connection = connection;
    if (signal.aborted) return this.#abandon(attempt, signal);
    const wire = host.wires.wireFor(connection.client.getNegotiatedProtocolVersion());
    if (!wire) {
      // Connecting again would negotiate the same revision: the start fails at once.
      const spoken = connection.client.getNegotiatedProtocolVersion() ?? 'no revision';
      if (!this.#warnedUnspoken) {
        this.#warnedUnspoken = true;
        host.log.warn(
          { speaks: spoken, spokenToServers: host.wires.names },
          `server "${host.name}" speaks only MCP ${spoken}, which no enabled revision plugin speaks to servers: it is unreachable until one does`,
        );
      }
      throw new ChildEndedError(`it speaks MCP ${spoken}, which no enabled revision plugin speaks to servers (the hub speaks ${host.wires.names.join(', ') || 'none'})`);
    }
    host.prepare(connection, wire);
    const tools = await listAllTools(connection.client, connection.client.getServerCapabilities());
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the signal may abort during the await; the compiler keeps the check before it
    if (signal.aborted) return this.#abandon(attempt, signal);
    if (attempt.closedEarly !== undefined) throw new HubError(HUB_ERROR_CODES.CHILD_CLOSED, attempt.closedEarly);
    if (generation !== this.#generation) throw new HubError(HUB_ERROR_CODES.CHILD_START_CANCELLED, `server "${host.name}" was stopped while starting`);

    attempt.adopted = true;
    const { client } = connection;
    this.connection = connection;
    this.negotiation = wire.remember(client, this.negotiation, Date.now());
    this.#lastEnded = undefined;
    host.adopt(client, tools);
    const timings = host.timings();
    this.#stopPings = startPings(
      client,
      wire,
      timings.pingIntervalMs,
      timings.pingTimeoutMs,
      (reason) => {
        if (connection !== this.connection) return;
        this.#closed(connection, reason);
        void connection.close().catch(noop);
      },
      host.clock(),
    );
    return client;
  }

  #closed(connection: ChildConnection, reason: string): void {
    if (connection !== this.connection) return;
    this.connection = undefined;
    this.#stopPings();
    this.host.closed(reason);
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

  #prior(): PriorDiscovery | undefined {
    const { negotiation } = this;
    if (!negotiation) return undefined;
    return this.host.wires.wireFor(negotiation.revision)?.prior(negotiation, Date.now());
  }
}

/** The child's whole tool list, all pages; none for a child that declares no tools. */
export async function listAllTools(client: Client, capabilities: ServerCapabilities | undefined): Promise<Tool[]> {
  if (capabilities && !capabilities.tools) return [];
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** Whether every promise settled within `ms`. */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([Promise.allSettled(promises).then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function noop(): void {}
