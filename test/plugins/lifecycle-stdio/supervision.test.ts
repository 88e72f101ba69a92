import { join } from 'node:path';
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { fixtureEntry, isAlive, startHub, starts, tempDir, waitFor } from '../../core/children/helpers.js';
import { ManualClock } from '../../helpers/clock.js';

t.test('a child that crashes is restarted', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const { hub, logs } = await startHub(t, { config: { mcpServers: { crashy: fixtureEntry('crashy', file) } } });
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');
  await child.withClient((client) => client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined));
  await waitFor('the restart', () => starts(file).length === 2 && child.status === 'up');
  t.match(logs.find((line) => line.msg === 'child connection closed')?.reason, /the process exited with code 3 \(stderr: crashing on request\)/, 'the reason names what the child said on stderr');
  t.ok(
    logs.some((line) => line.msg === 'crashy: crashing on request' && line.stream === 'stderr'),
    'stderr reached the hub log, prefixed with the server name',
  );
  const result = await child.withClient((client) => client.callTool({ name: 'echo', arguments: {} }));
  t.same(result.content, [{ type: 'text', text: 'ok' }]);
});

t.test('a crash loop restarts with growing delays and is parked while unused', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const { hub, logs } = await startHub(t, {
    config: { mcpServers: { looping: fixtureEntry('crashy', file, { env: { CRASH_AFTER_LISTING: '1' } }) } },
    timings: { backoffBaseMs: 600, backoffMaxMs: 10_000, crashLoopLimit: 4 },
  });
  const child = hub.children.get('looping');
  if (!child) throw new Error('no child');
  await child.ensureUp();
  await waitFor('the server to be parked', () => child.status === 'stopped');
  t.match(child.lastError, /^crash loop: ended 4 times in a row while unused; last: the process exited with code 4 \(stderr: crashing on schedule\)$/);
  const recorded = starts(file);
  t.equal(recorded.length, 4, 'started once and restarted three times');
  // The policy, not the clock: each restart was scheduled after the back-off for its
  // failure count (backoffDelay, tested as a function in units.test.ts).
  const scheduled = logs.filter((line) => line.msg === 'server ended; restarting').map((line) => [line.failures, line.delayMs]);
  t.same(
    scheduled,
    [
      [1, 600],
      [2, 1200],
      [3, 2400],
    ],
    'restarts were scheduled with doubling delays',
  );
  t.notOk(
    recorded.some((start) => isAlive(start.pid)),
    'no process is left running',
  );
  await child.ensureUp();
  t.equal(child.status, 'up', 'a parked server starts again on use');
});

t.test('a server that ran and crashed is restarted with back-off; one that cannot start is not retried', async (t) => {
  const directory = await tempDir(t);
  const { hub, logs } = await startHub(t, {
    config: { mcpServers: { exits: fixtureEntry('exits-at-once', join(directory, 'exits')) } },
    timings: { failedStartMemoryMs: 0 },
  });
  const child = hub.children.get('exits');
  if (!child) throw new Error('no child');
  await t.rejects(child.ensureUp(), /^server "exits" could not start: the process exited with code \d+ \(stderr: error: cannot open the database/);
  t.equal(starts(join(directory, 'exits')).length, 1, 'one attempt, not a retry loop over the wake budget');
  t.notOk(
    logs.some((line) => line.msg === 'server ended; restarting'),
    'no supervision restart for a server that never ran',
  );
  t.equal(child.status, 'down');
});

t.test('a child that stops answering pings is restarted', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  // The pings run on a clock the test moves: a ping is late when the test says so, never
  // because the machine is slow to answer.
  const clock = new ManualClock();
  const { hub, logs } = await startHub(t, {
    config: { mcpServers: { crashy: fixtureEntry('crashy', file) } },
    timings: { pingIntervalMs: 1_000, pingTimeoutMs: 60_000, backoffBaseMs: 100 },
    clock,
  });
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');
  await child.withClient((client) => client.callTool({ name: 'freeze', arguments: {} }));
  // A ping sent in the moment before the freeze is still answered: move on until one is not.
  const ended = () => logs.find((line) => line.msg === 'server ended; restarting');
  while (!ended()) {
    clock.advance(61_000);
    await sleep(25);
  }
  t.match(ended()?.reason, /^did not answer a ping: Request timed out after 60000 ms$/);
  t.equal(child.status, 'down');
  clock.advance(100);
  await waitFor('the restart', () => starts(file).length === 2 && child.status === 'up');
  t.pass('restarted after the back-off');
  await waitFor('the frozen process to be killed', () => !isAlive(starts(file)[0]?.pid ?? 0));
});

t.test('a start beyond the budget fails naming the server and the reason', async (t) => {
  const directory = await tempDir(t);
  const { hub } = await startHub(t, {
    config: {
      mcpServers: {
        slow: fixtureEntry('slow-start', join(directory, 'slow'), { env: { START_DELAY_MS: '60000' } }),
        silent: fixtureEntry('silent', join(directory, 'silent')),
        missing: { command: join(directory, 'no-such-command') },
      },
    },
    timings: { wakeBudgetMs: 1_000, backoffBaseMs: 200 },
  });
  const slow = hub.children.get('slow');
  const silent = hub.children.get('silent');
  const missing = hub.children.get('missing');
  if (!slow || !silent || !missing) throw new Error('no child');
  const [slowError, silentError, missingError] = await Promise.all([
    slow.ensureUp().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    ),
    silent.ensureUp().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    ),
    missing.ensureUp().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    ),
  ]);
  t.match(slowError?.message, /^server "slow" did not start within 1 s: no answer within/);
  t.match(silentError?.message, /^server "silent" did not start within 1 s: no answer within/);
  t.match(missingError?.message, /^server "missing" could not start: cannot run ".*no-such-command": .*ENOENT/);
  t.equal(slow.status, 'down');
  t.match(slow.lastError, /no answer within/, 'the reason is kept for error messages');
  t.equal(missing.status, 'down');
  await waitFor('the slow and silent processes to end', () => [...starts(join(directory, 'slow')), ...starts(join(directory, 'silent'))].every((start) => !isAlive(start.pid)));
  t.pass('no process outlives its budget');
});
