import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerEntry } from '../config/schema.js';
import { HUB_ERROR_CODES, HubError } from '../errors.js';
import { Registry } from '../registry.js';
import { Child } from './child.js';
import type { ChildObserver } from './child-observer.js';
import { systemClock, type ChildClock } from './clock.js';
import type { ChildType } from './child-type.js';
import { createInProcessChildType, IN_PROCESS_TYPE } from './client/in-process.js';
import { SnapshotStore } from './snapshot.js';
import { DEFAULT_CHILD_TIMINGS, type ChildTimings } from './timings.js';
import { ToolGates } from './tool-gates.js';
import { childWires, type ChildWires } from './wires.js';

export interface ChildRegistryOptions {
  /** Where `snapshots/` lives; without it no snapshot is read or written. */
  dataPath?: string;
  /** IDLE_TIMEOUT_MINUTES; 0 never sleeps a server. */
  idleTimeoutMinutes?: number;
  /** START_TIMEOUT_MS: the wake budget of a server whose entry sets no `startTimeoutMs`. */
  startTimeoutMs?: number;
  /** The revisions spoken to children; none by default. */
  wires?: ChildWires;
  /** Relative paths in entries are resolved against it (handed to child types as they connect). */
  configDirectory?: string;
}

/** The configured servers by name, and the child types that can run them. */
export class ChildRegistry {
  readonly types = new Registry<ChildType>('child type');
  /** What plugins withhold of every server's tools. */
  readonly gates: ToolGates;
  readonly snapshots: SnapshotStore | undefined;
  readonly wires: ChildWires;
  readonly #children = new Map<string, Child>();
  readonly #removalListeners = new Set<(name: string) => void>();
  readonly #observers = new Set<ChildObserver>();
  readonly #inProcess: ReturnType<typeof createInProcessChildType>;
  #timings: ChildTimings;
  #clock: ChildClock = systemClock;
  readonly #configDirectory: string | undefined;

  constructor(
    private readonly log: FastifyBaseLogger,
    clientInfo: { name: string; version: string },
    options: ChildRegistryOptions = {},
  ) {
    this.gates = new ToolGates(log);
    this.#inProcess = createInProcessChildType(clientInfo);
    this.types.add(IN_PROCESS_TYPE, this.#inProcess);
    this.wires = options.wires ?? childWires(() => []);
    this.#configDirectory = options.configDirectory;
    this.snapshots = options.dataPath === undefined ? undefined : new SnapshotStore(options.dataPath, log);
    this.#timings = {
      ...DEFAULT_CHILD_TIMINGS,
      ...(options.idleTimeoutMinutes === undefined ? {} : { idleTimeoutMs: Math.round(options.idleTimeoutMinutes * 60_000) }),
      ...(options.startTimeoutMs === undefined ? {} : { wakeBudgetMs: options.startTimeoutMs }),
    };
  }

  /** The timings every child reads (at each start, idle arm and restart). */
  get timings(): ChildTimings {
    return this.#timings;
  }

  /** Overrides timings, for embedders and tests that need short budgets and back-offs. */
  configure(timings: Partial<ChildTimings>): void {
    this.#timings = { ...this.#timings, ...timings };
  }

  /** Runs every child's timers (idle sleep, supervision, pings) on `clock`: tests advance one by hand. */
  useClock(clock: ChildClock): void {
    this.#clock = clock;
  }

  /**
   * Adds a server that lives in this process. `entry` takes the hub's own keys
   * (`hub`, `allowTools`, `denyTools`).
   */
  addInProcess(name: string, factory: McpServerFactory, entry: ServerEntry = {}): Child {
    this.#inProcess.provide(name, factory);
    return this.add(name, { ...entry, type: IN_PROCESS_TYPE });
  }

  /**
   * Adds a validated entry; the caller has checked the name and the type. With `blocked`
   * (why it cannot run: an unset variable), the server is kept down saying so, and never started.
   */
  add(name: string, entry: ServerEntry, blocked?: string): Child {
    if (this.#children.has(name)) throw new HubError(HUB_ERROR_CODES.SERVER_EXISTS, `server "${name}" is configured twice`);
    const type = entry.type ?? inferType(entry);
    const childType = this.types.get(type);
    if (!childType) throw new HubError(HUB_ERROR_CODES.CHILD_TYPE_UNKNOWN, `server "${name}": child type "${type}" is not registered`);
    const child = new Child(name, { ...entry, type }, childType, this.log.child({ server: name }), {
      timings: () => this.#timings,
      clock: () => this.#clock,
      observers: this.#observers,
      wires: this.wires,
      gates: this.gates,
      ...(this.#configDirectory !== undefined && { configDirectory: this.#configDirectory }),
      ...(blocked !== undefined && { blocked }),
      ...(childType.snapshots === false || !this.snapshots ? {} : { snapshots: this.snapshots }),
    });
    this.#children.set(name, child);
    return child;
  }

  /**
   * Takes a server out (a reload removed or changed it): it is no longer found, so no new
   * call reaches it; the calls already running finish, then it stops. Listeners hear of
   * the removal at once, so whatever they keep for the name (an endpoint) is dropped.
   */
  async remove(name: string): Promise<void> {
    const child = this.#children.get(name);
    if (!child) return;
    this.#children.delete(name);
    for (const listener of this.#removalListeners) listener(name);
    await child.drain();
  }

  /**
   * Hears every server's status changes and starts, also of servers added later (metrics,
   * audit). Returns the unsubscribe.
   */
  observe(observer: ChildObserver): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  /** Called with the name of every server `remove` takes out. Returns the unsubscribe. */
  onRemoved(listener: (name: string) => void): () => void {
    this.#removalListeners.add(listener);
    return () => this.#removalListeners.delete(listener);
  }

  get(name: string): Child | undefined {
    return this.#children.get(name);
  }

  all(): Child[] {
    return [...this.#children.values()];
  }

  /**
   * Reads every server's snapshot (or the given ones'), so sleeping servers answer listing from the first
   * request on. A missing or corrupt snapshot leaves that server's list empty.
   */
  async loadSnapshots(children = this.all()): Promise<void> {
    const store = this.snapshots;
    if (!store) return;
    await Promise.all(
      children
        .filter((child) => child.childType.snapshots !== false)
        .map(async (child) => {
          const snapshot = await store.load(child.name);
          if (snapshot) child.adoptSnapshot(snapshot);
        }),
    );
  }

  /** Stops every child, in parallel; one that fails to stop does not keep the others up. */
  async stopAll(): Promise<void> {
    await Promise.allSettled(this.all().map((child) => child.disconnect('stopped')));
    await this.snapshots?.flush();
  }
}

/** Claude Code's rule: an entry with `command` is stdio, one with `url` is http. */
export function inferType(entry: ServerEntry): string {
  if (entry.type) return entry.type;
  if (entry.command !== undefined) return 'stdio';
  if (entry.url !== undefined) return 'http';
  return 'stdio';
}
