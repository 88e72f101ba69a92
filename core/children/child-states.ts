import { HUB_ERROR_CODES, HubError } from '../errors.js';

/** Where a configured server is in its life. */
export type ChildStatus = 'starting' | 'up' | 'down' | 'stopped' | 'sleeping' | 'unauthorized';

export const CHILD_STATUSES: readonly ChildStatus[] = ['starting', 'up', 'down', 'stopped', 'sleeping', 'unauthorized'];

/**
 * Where ending the connection puts a server, from any status: asleep (idle or asked),
 * stopped (shut down, drained, parked after a crash loop) or waiting for an operator's
 * login. Saying it again is allowed: the hub's shutdown stops servers already stopped.
 */
export type RestingStatus = 'sleeping' | 'stopped' | 'unauthorized';
const RESTING: readonly RestingStatus[] = ['sleeping', 'stopped', 'unauthorized'];

/**
 * The lifecycle, as data: the statuses each status may move to. Only a start brings a
 * server up, and it begins anywhere but `up` (`starting` to `starting` is a failed attempt
 * within one wake, with its reason); only a start or a crash of a running server puts it
 * `down`.
 */
export const CHILD_TRANSITIONS: Readonly<Record<ChildStatus, readonly ChildStatus[]>> = {
  sleeping: ['starting', ...RESTING],
  starting: ['starting', 'up', 'down', ...RESTING],
  up: ['down', ...RESTING],
  down: ['starting', ...RESTING],
  stopped: ['starting', ...RESTING],
  unauthorized: ['starting', ...RESTING],
};

/** A server's status and why it last failed. */
export interface ChildState {
  readonly status: ChildStatus;
  readonly lastError: string | undefined;
}

/** One step of a server's life, as observers hear of it. */
export interface ChildTransition {
  readonly from: ChildStatus;
  readonly to: ChildStatus;
  /** Why, when a failure caused it (the start failed, the child ended, a login is needed, a crash loop). */
  readonly reason: string | undefined;
}

/**
 * The state after moving `state` to `to`. The last error is what `reason` says; a server
 * that comes up has none; otherwise it is kept, so a server starting again or put to rest
 * still says why it last failed. A step the table does not allow is a bug in the hub.
 */
export function nextChildState(server: string, state: ChildState, to: ChildStatus, reason?: string): ChildState {
  if (!CHILD_TRANSITIONS[state.status].includes(to)) {
    throw new HubError(HUB_ERROR_CODES.CHILD_TRANSITION, `server "${server}" cannot go from ${state.status} to ${to}`);
  }
  return { status: to, lastError: to === 'up' ? undefined : (reason ?? state.lastError) };
}

/** Whether a server in `status` with a last error is in trouble rather than resting or busy. */
export function isTroubled(status: ChildStatus): boolean {
  return status === 'down' || status === 'stopped' || status === 'unauthorized';
}
