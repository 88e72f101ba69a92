import type { FastifyBaseLogger } from 'fastify';
import type { Child } from './child.js';
import type { ChildTransition } from './child-states.js';

/** Why a start began: someone needed the server (a call, a listing, a reload, the boot of an always-running one), or supervision after a crash. */
export type StartReason = 'wake' | 'restart';

/** A start that ended: how, and how long it took from its beginning. */
export interface ChildStartEvent {
  readonly reason: StartReason;
  /** `cancelled` when the server was put to sleep, stopped or logged out while it started. */
  readonly outcome: 'up' | 'failed' | 'cancelled';
  readonly durationMs: number;
}

/**
 * Hears every child's lifecycle (metrics, audit, a search index). Called synchronously as things happen;
 * an observer that throws is logged and the child goes on.
 */
export interface ChildObserver {
  transition?(child: Child, event: ChildTransition): void;
  start?(child: Child, event: ChildStartEvent): void;
  /** The tool list callers get may read differently: the child reported a change, a snapshot was adopted, or a tool gate changed its mind. */
  toolsChanged?(child: Child): void;
}

/** Tells the observers, if there are any: without them nothing is called. */
export function notifyObservers(observers: ReadonlySet<ChildObserver> | undefined, log: FastifyBaseLogger, tell: (observer: ChildObserver) => void): void {
  if (observers === undefined || observers.size === 0) return;
  for (const observer of observers) {
    try {
      tell(observer);
    } catch (error) {
      log.warn({ err: (error as Error).message }, 'child observer failed');
    }
  }
}
