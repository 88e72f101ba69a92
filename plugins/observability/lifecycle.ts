import { type ChildStatusEvent, type Hub, observe } from '../../core/plugin-api.js';

/** Why a server started: its first start, a wake from sleep, or a restart after it went down. */
export type StartReason = 'start' | 'wake' | 'restart';

export interface ServerTimes {
  /** When the last start began and why (ms since the epoch). */
  lastStart?: { at: number; reason: StartReason };
  /** When the server last came up, and how long that start took. */
  lastUp?: { at: number; seconds: number };
}

export interface LifecycleListener {
  started(server: string, reason: StartReason): void;
  up(server: string, seconds: number, reason: StartReason): void;
}

/**
 * Reads the hub's servers' starts, wakes and restarts from their status changes alone
 * (`starting` begins one, `up` ends it), so the kernel publishes one thing: the change.
 */
export class Lifecycle {
  readonly times = new Map<string, ServerTimes>();
  readonly #began = new Map<string, { at: number; reason: StartReason }>();
  readonly #everUp = new Set<string>();

  constructor(
    private readonly hub: Hub,
    private readonly listeners: LifecycleListener[],
  ) {}

  /** Subscribes; returns the unsubscribe. */
  listen(): () => void {
    return observe.childStatus.subscribe((event) => this.#changed(event));
  }

  #changed({ child, from, to }: ChildStatusEvent): void {
    const server = child.name;
    if (this.hub.children.get(server) !== child) return;
    const times = this.times.get(server) ?? {};
    this.times.set(server, times);
    if (to === 'starting') {
      const reason: StartReason = from === 'sleeping' ? 'wake' : this.#everUp.has(server) ? 'restart' : 'start';
      this.#began.set(server, { at: performance.now(), reason });
      times.lastStart = { at: Date.now(), reason };
      for (const listener of this.listeners) listener.started(server, reason);
    } else if (to === 'up') {
      const began = this.#began.get(server);
      this.#began.delete(server);
      this.#everUp.add(server);
      const seconds = began ? (performance.now() - began.at) / 1000 : 0;
      times.lastUp = { at: Date.now(), seconds };
      if (began) for (const listener of this.listeners) listener.up(server, seconds, began.reason);
    } else {
      this.#began.delete(server);
    }
  }
}
