import type { PluginHub } from '../../core/plugin/index.js';
import type { ServerView } from '../../core/plugin/meta-tool.js';
import type { ChildStartEvent, ChildStatus } from '../../core/plugin/observe.js';

/** Why a server started: its first start, a wake from sleep, or a restart after it went down. */
export type StartReason = 'start' | 'wake' | 'restart';

export interface ServerTimes {
  /** When the last start began and why (ms since the epoch). */
  lastStart?: { at: number; reason: StartReason };
  /** When the server last came up, and how long that start took. */
  lastUp?: { at: number; seconds: number };
  /** The last crash (it was up and ended unasked) or failed start, and why: kept once it is up again. */
  lastFailure?: { at: number; kind: 'crash' | 'start'; reason: string };
}

export interface LifecycleListener {
  started(server: string, reason: StartReason): void;
  up(server: string, seconds: number, reason: StartReason): void;
  failed(server: string, reason: string, kind: 'crash' | 'start'): void;
}

/**
 * Follows the hub's servers through `hub.servers.observe`: a change to `starting` begins
 * a start (a wake from sleep, a restart of a server that was up before, or its first
 * start), and the kernel's start report says when one came up and how long it took, or
 * that it failed; a server that was up and goes `down` crashed.
 */
export class Lifecycle {
  readonly times = new Map<string, ServerTimes>();
  readonly #reasons = new Map<string, StartReason>();
  readonly #everUp = new Set<string>();

  constructor(
    private readonly hub: PluginHub,
    private readonly listeners: LifecycleListener[],
  ) {}

  /** Subscribes; returns the unsubscribe. */
  listen(): () => void {
    return this.hub.servers.observe({
      transition: (child, { from, to, reason: why }) => this.#changed(child, from, to, why),
      start: (child, event) => this.#started(child, event),
    });
  }

  #timesOf(server: string): ServerTimes {
    const times = this.times.get(server) ?? {};
    this.times.set(server, times);
    return times;
  }

  /** Forgets the servers a reload took out (a server it changed keeps its history). */
  prune(configured: ReadonlySet<string>): void {
    for (const server of this.times.keys()) {
      if (configured.has(server)) continue;
      this.times.delete(server);
      this.#reasons.delete(server);
      this.#everUp.delete(server);
    }
  }

  #changed(child: ServerView, from: ChildStatus, to: ChildStatus, why: string | undefined): void {
    const server = child.name;
    if (from === 'up' && to === 'down') this.#failed(server, why ?? 'the connection ended', 'crash');
    // A failed attempt within one wake is `starting` again: still the same start.
    if (to !== 'starting' || from === 'starting') return;
    const reason: StartReason = from === 'sleeping' ? 'wake' : this.#everUp.has(server) ? 'restart' : 'start';
    this.#reasons.set(server, reason);
    this.#timesOf(server).lastStart = { at: Date.now(), reason };
    for (const listener of this.listeners) listener.started(server, reason);
  }

  #started(child: ServerView, event: ChildStartEvent): void {
    const server = child.name;
    if (event.outcome === 'failed') this.#failed(server, child.lastError ?? 'the start failed', 'start');
    const reason = this.#reasons.get(server);
    this.#reasons.delete(server);
    if (event.outcome !== 'up' || reason === undefined) return;
    this.#everUp.add(server);
    const seconds = event.durationMs / 1000;
    this.#timesOf(server).lastUp = { at: Date.now(), seconds };
    for (const listener of this.listeners) listener.up(server, seconds, reason);
  }

  #failed(server: string, reason: string, kind: 'crash' | 'start'): void {
    this.#timesOf(server).lastFailure = { at: Date.now(), kind, reason };
    for (const listener of this.listeners) listener.failed(server, reason, kind);
  }
}
