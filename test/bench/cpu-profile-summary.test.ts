// bench/cpu-profile-summary.ts on a real profile: this process profiles itself (node:inspector)
// while one named function does nearly all the work, and the summary must put that function
// first, with its file and line, and shares that add up to the busy time.
import { Session } from 'node:inspector/promises';
import t from 'tap';
import { formatCpuSummary, summarizeCpuProfile, type CpuProfile } from '../../bench/cpu-profile-summary.js';

/** Work enough for a few hundred samples at V8's default interval on any machine, by count rather than by time. */
function spinForTheProfile(): number {
  let sum = 0;
  for (let at = 0; at < 60_000_000; at += 1) sum = (sum + at * 7) % 1_000_003;
  return sum;
}

t.test('the function doing the work comes first, named with its file and line; the shares add up to the busy time', async (t) => {
  const session = new Session();
  session.connect();
  t.teardown(() => session.disconnect());
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  t.ok(spinForTheProfile() >= 0);
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };

  const summary = summarizeCpuProfile(profile);
  t.ok(summary.busyMs > 0, 'busy time was sampled');
  const [first] = summary.shares;
  t.match(first?.frame, /^spinForTheProfile \(.*cpu-profile-summary\.test\.js:\d+\)$/, 'the spinning function, with its file and line');
  t.ok((first?.share ?? 0) > 0.5, `it has most of the busy time (${first?.share})`);
  const total = summary.shares.reduce((sum, { share }) => sum + share, 0);
  t.ok(Math.abs(total - 1) < 1e-9, 'the shares add up to the busy time');
  t.notOk(
    summary.shares.some(({ frame }) => frame === '(idle)'),
    'idle time is not a share',
  );
  const text = formatCpuSummary(summary, 3).split('\n');
  t.equal(text.length, 4, 'the busy time and the top three');
  t.match(text[1], /^\s*\d+\.\d\d % {2}spinForTheProfile /);
});
