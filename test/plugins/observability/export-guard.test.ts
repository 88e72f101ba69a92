import t from 'tap';
import { ExportFailureLog, flushBudget, settleWithin, SHUTDOWN_FLUSH_MS, type Timers } from '../../../plugins/observability/export-guard.js';

/** A log that keeps its lines. */
function recordingLog() {
  const lines: Array<{ level: 'warn' | 'info'; message: string; fields: Record<string, unknown> }> = [];
  return {
    lines,
    log: {
      warn: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'warn', message, fields }),
      info: (fields: Record<string, unknown>, message: string) => lines.push({ level: 'info', message, fields }),
    },
  };
}

/** Timers run by hand: nothing fires until the test says so. */
function manualTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 0;
  const timers: Timers = {
    setTimeout: (run, ms) => {
      next += 1;
      pending.set(next, { run, ms });
      return next;
    },
    clearTimeout: (timer) => void pending.delete(timer as number),
  };
  return {
    timers,
    pending,
    fireAll: () => {
      for (const [id, timer] of [...pending]) {
        pending.delete(id);
        timer.run();
      }
    },
  };
}

t.test('a collector out of reach is logged once, then at most once per interval, and its return once', async (t) => {
  let now = 1_000_000;
  const { lines, log } = recordingLog();
  const failures = new ExportFailureLog(log, 'http://collector:4318/v1/traces', () => now, 300_000);
  t.equal(failures.failing, false, 'no export has failed yet');
  failures.failed('connect ECONNREFUSED 127.0.0.1:4318');
  t.equal(failures.failing, true, 'the collector is out of reach');
  t.equal(lines.length, 1, 'the first failure is logged at once');
  t.match(lines[0], { level: 'warn', fields: { collector: 'http://collector:4318/v1/traces', err: 'connect ECONNREFUSED 127.0.0.1:4318' } });
  t.match(lines[0]?.message, /cannot reach the collector.*at most every 5 minutes/);
  for (let batch = 0; batch < 50; batch += 1) {
    now += 5_000;
    failures.failed('connect ECONNREFUSED 127.0.0.1:4318');
  }
  t.equal(lines.length, 1, 'fifty more failures within the interval: nothing more');
  now += 50_001;
  failures.failed('connect ECONNREFUSED 127.0.0.1:4318');
  t.equal(lines.length, 2, 'once the interval has passed, one more line');
  t.match(lines[1], { level: 'warn', message: /still cannot reach/, fields: { failedExports: 51 } }, 'saying how many exports failed since');
  now += 1_000;
  failures.succeeded();
  t.equal(failures.failing, false, 'it answers again');
  t.match(lines[2], { level: 'info', message: /reach the collector again/, fields: { failedExports: 0 } }, 'the recovery is said once');
  failures.succeeded();
  t.equal(lines.length, 3, 'and not again');
  now += 1_000;
  failures.failed('socket hang up');
  t.equal(lines.length, 4, 'a new outage after a recovery is logged at once');
});

t.test('a flush is waited for at most its budget, and neither its failure nor its lateness is thrown', async (t) => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- a guard for when the constant changes, which its literal type decides today
  t.ok(SHUTDOWN_FLUSH_MS <= 1500, 'the budget leaves the rest of the shutdown room within 2 s');
  const { timers, pending, fireAll } = manualTimers();
  const done = await settleWithin(Promise.resolve(), SHUTDOWN_FLUSH_MS, timers);
  t.same(done, { result: 'done' }, 'a flush in time');
  t.equal(pending.size, 0, 'leaves no timer behind');

  const failure = new Error('connect ECONNREFUSED');
  t.same(await settleWithin(Promise.reject(failure), SHUTDOWN_FLUSH_MS, timers), { result: 'failed', error: failure }, 'a failed flush resolves, with its error');

  let answer: () => void = () => undefined;
  const never = new Promise<void>((resolve) => (answer = resolve));
  const waiting = settleWithin(never, SHUTDOWN_FLUSH_MS, timers);
  t.same(
    [...pending.values()].map((timer) => timer.ms),
    [SHUTDOWN_FLUSH_MS],
    'the wait is bounded by the budget',
  );
  fireAll();
  t.same(await waiting, { result: 'late' }, 'a collector that never answers: the shutdown goes on when the budget is spent');
  answer();
});

/**
 * Issue 27, defect 3: SIGTERM with an unreachable collector took 8.8 s. The shutdown waits
 * for the last spans only while the collector is thought reachable, and at most the budget.
 */
t.test('a shutdown does not wait for a collector the last export could not reach', async (t) => {
  t.equal(flushBudget(true), 0, 'the last export failed: no wait');
  t.equal(flushBudget(false), SHUTDOWN_FLUSH_MS, 'otherwise the budget');
  const { timers, pending, fireAll } = manualTimers();
  const waiting = settleWithin(new Promise(() => undefined), flushBudget(true), timers);
  t.same(
    [...pending.values()].map((timer) => timer.ms),
    [0],
  );
  fireAll();
  t.same(await waiting, { result: 'late' }, 'the shutdown goes on at once');
});
