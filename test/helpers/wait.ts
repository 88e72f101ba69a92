import { setTimeout as sleep } from 'node:timers/promises';

/** Polls every 50 ms, at most this many times (about a minute): a bound for a hang, counted in polls rather than read from the clock. */
const MOST_POLLS = 1_200;

/**
 * Polls `check` until it gives a value, and resolves with it. Gives up after `MOST_POLLS`
 * polls, naming `what` and what `context` says then (a process's output, a log). A `check`
 * that throws ends the wait with its error.
 */
export async function waitForValue<T>(what: string, check: () => T | undefined | Promise<T | undefined>, context: () => string): Promise<T> {
  for (let poll = 1; ; poll += 1) {
    const found = await check();
    if (found !== undefined) return found;
    if (poll >= MOST_POLLS) throw new Error(`gave up waiting for ${what} after ${MOST_POLLS} polls: ${context()}`);
    await sleep(50);
  }
}
