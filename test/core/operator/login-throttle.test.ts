import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CHECKS_PER_ADDRESS, LoginThrottle } from '../../../core/operator/login-throttle.js';
import { openStore } from '../../../core/store/index.js';

/** A wait the test releases by hand, recording what happened around it. */
function heldWait(events: string[]) {
  const waiting: Array<() => void> = [];
  return {
    wait: (ms: number) => {
      events.push(`wait ${ms}`);
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release: () => waiting.shift()?.(),
    get held() {
      return waiting.length;
    },
  };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
};

t.test('one check per address at a time, the wait before it, while the turn is held', async (t) => {
  const store = await openStore({ dataPath: await mkdtemp(join(tmpdir(), 'throttle-')) });
  t.teardown(() => store.close());
  const events: string[] = [];
  const held = heldWait(events);
  const throttle = new LoginThrottle(store, held.wait);
  const first = throttle.attempt('203.0.113.1', async () => {
    events.push('check');
    return false;
  });
  await until(() => held.held === 1);
  t.same(await throttle.attempt('203.0.113.1', async () => true), { refused: 'busy', retryAfterSeconds: 1 }, 'a second password of the address is refused at once, unchecked');
  t.same(await throttle.attempt('203.0.113.1', async () => true), { refused: 'busy', retryAfterSeconds: 1 }, 'however many come');
  const other = throttle.attempt('198.51.100.1', async () => true);
  await until(() => held.held === 2);
  t.same(events, ['wait 0', 'wait 0'], 'another address is not held up; nothing was checked before its wait');
  held.release();
  t.same(await first, { refused: false, matched: false });
  held.release();
  t.same(await other, { refused: false, matched: true });
  t.same(events, ['wait 0', 'wait 0', 'check'], 'the check comes after the wait');
});

t.test('replicas on one store: the attempts are counted before the check, atomically', async (t) => {
  const store = await openStore({ dataPath: await mkdtemp(join(tmpdir(), 'throttle-')) });
  t.teardown(() => store.close());
  // Three processes' throttles on one store: one address guesses in parallel on all of them.
  const replicas = [new LoginThrottle(store, async () => undefined), new LoginThrottle(store, async () => undefined), new LoginThrottle(store, async () => undefined)];
  let checked = 0;
  const guess = async () => {
    checked++;
    return false;
  };
  const answers = await Promise.all(Array.from({ length: 300 }, (_, index) => replicas[index % 3]!.attempt('203.0.113.9', guess)));
  t.ok(checked <= CHECKS_PER_ADDRESS, `${checked} checked`);
  t.equal(answers.filter((answer) => answer.refused === false).length, checked);
  // One at a time now, round the replicas: the rest of the address's checks, then refusals.
  const later = [];
  for (let index = 0; index < 30; index++) later.push(await replicas[index % 3]!.attempt('203.0.113.9', guess));
  t.equal(checked, CHECKS_PER_ADDRESS, 'exactly the documented number of wrong passwords was checked, on all replicas together');
  t.same(
    later.slice(-3).map((answer) => answer.refused),
    ['throttled', 'throttled', 'throttled'],
    'every replica refuses the address',
  );
  t.same(await replicas[0]!.attempt('198.51.100.2', async () => true), { refused: false, matched: true }, 'another address is not refused');
});

t.test('the right password does not count against the address', async (t) => {
  const store = await openStore({ dataPath: await mkdtemp(join(tmpdir(), 'throttle-')) });
  t.teardown(() => store.close());
  const throttle = new LoginThrottle(store, async () => undefined);
  for (let index = 0; index < 3 * CHECKS_PER_ADDRESS; index++) t.same(await throttle.attempt('203.0.113.3', async () => true), { refused: false, matched: true });
  for (let index = 0; index < CHECKS_PER_ADDRESS; index++) t.same(await throttle.attempt('203.0.113.3', async () => false), { refused: false, matched: false });
  t.equal((await throttle.attempt('203.0.113.3', async () => true)).refused, 'throttled', 'ten wrong ones then refuse even the right one');
});
