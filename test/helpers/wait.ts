import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls `check` until it gives a value, and resolves with it. Gives up after a minute, a
 * bound for a hang rather than a timing assertion, naming `what` and what `context` says
 * then (a process's output, a log). A `check` that throws ends the wait with its error.
 */
export async function waitForValue<T>(what: string, check: () => T | undefined | Promise<T | undefined>, context: () => string): Promise<T> {
  const until = Date.now() + 60_000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${context()}`);
    await sleep(50);
  }
}
