/** A timer a `ChildClock` handed out, to cancel it by. */
export type ClockTimer = object;

/**
 * The timers a child's policies run on: the idle sleep, supervision's back-off and
 * stable-run reset, the pings. Production uses the system's; tests hand in one they
 * advance by hand, so a policy is shown by events rather than by how fast the machine is.
 * Timers never keep the process alive.
 */
export interface ChildClock {
  setTimeout(callback: () => void, ms: number): ClockTimer;
  clearTimeout(timer: ClockTimer | undefined): void;
}

export const systemClock: ChildClock = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
};
