import t from 'tap';
import pino from 'pino';
import { relistDelay, Relister } from '../../../core/children/relist.js';
import { ManualClock } from '../../helpers/clock.js';

// Issue 44 F2: a child that cannot be watched is re-listed on a bounded interval.

const TIMINGS = { relistBaseMs: 1_000, relistMaxMs: 8_000 };

t.test('the wait doubles while nothing changes and never passes the maximum', async (t) => {
  t.same(
    [0, 1, 2, 3, 4, 10, 1_000].map((quiet) => relistDelay(quiet, TIMINGS)),
    [1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000],
  );
});

t.test('re-listing follows the policy on the clock it is given: a change brings the wait back to its base, stop ends it', async (t) => {
  const clock = new ManualClock();
  const answers = [false, false, true, false];
  const rounds: number[] = [];
  let now = 0;
  let settled: () => void = () => undefined;
  const relister = new Relister(
    () => clock,
    () => TIMINGS,
    async () => {
      rounds.push(now);
      const changed = answers.shift() ?? false;
      queueMicrotask(() => settled());
      return changed;
    },
    pino({ level: 'silent' }),
  );
  /** Moves the clock by `ms` and waits for the round it fires (if one does) to schedule the next. */
  const advance = async (ms: number): Promise<void> => {
    now += ms;
    const done = new Promise<void>((resolve) => (settled = resolve));
    const before = rounds.length;
    clock.advance(ms);
    if (rounds.length > before) await done;
    await new Promise((resolve) => setImmediate(resolve));
  };

  t.equal(relister.running, false, 'nothing runs before start');
  relister.start();
  t.equal(relister.running, true);
  await advance(999);
  t.same(rounds, [], 'no round before the base wait');
  await advance(1); // 1 000: quiet -> next in 2 000
  await advance(2_000); // 3 000: quiet -> next in 4 000
  await advance(3_999);
  t.same(rounds, [1_000, 3_000], 'the second quiet round doubles the wait');
  await advance(1); // 7 000: a change -> next in 1 000
  await advance(1_000); // 8 000
  t.same(rounds, [1_000, 3_000, 7_000, 8_000], 'after a change the wait is the base again');
  relister.stop();
  t.equal(relister.running, false);
  await advance(100_000);
  t.same(rounds.length, 4, 'no round after stop');
  t.equal(clock.pending, 0, 'and no timer left');
});
