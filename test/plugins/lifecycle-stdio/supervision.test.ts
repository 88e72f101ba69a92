import { join } from 'node:path';
import t from 'tap';
import { fixtureEntry, isAlive, startHub, starts, tempDir, waitFor } from '../../core/children/helpers.js';

t.test('a child that crashes is restarted', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const { hub, logs } = await startHub(t, { config: { mcpServers: { crashy: fixtureEntry('crashy', file) } } });
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');
  await child.withClient((client) => client.callTool({ name: 'crash', arguments: {} }).catch(() => undefined));
  await waitFor('the restart', () => starts(file).length === 2 && child.status === 'up');
  t.match(
    logs.find((line) => line.msg === 'child connection closed')?.reason,
    /the process exited \(last stderr line: crashing on request\)/,
    'the reason names the last stderr line',
  );
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
  const { hub } = await startHub(t, {
    config: { mcpServers: { looping: fixtureEntry('crashy', file, { env: { CRASH_AFTER_MS: '500' } }) } },
    timings: { backoffBaseMs: 600, crashLoopLimit: 4 },
  });
  const child = hub.children.get('looping');
  if (!child) throw new Error('no child');
  await child.ensureUp();
  await waitFor('the server to be parked', () => child.status === 'stopped');
  t.match(child.lastError, /^crash loop: ended 4 times in a row while unused; last: the process exited/);
  const recorded = starts(file);
  t.equal(recorded.length, 4, 'started once and restarted three times');
  const gaps = recorded.slice(1).map((start, index) => start.at - (recorded[index]?.at ?? 0));
  t.ok(
    gaps.every((gap, index) => index === 0 || gap > (gaps[index - 1] ?? 0)),
    `the delays between starts grow (${gaps.join(', ')} ms)`,
  );
  t.notOk(recorded.some((start) => isAlive(start.pid)), 'no process is left running');
  await child.ensureUp();
  t.equal(child.status, 'up', 'a parked server starts again on use');
});

t.test('a child that stops answering pings is restarted', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const { hub } = await startHub(t, {
    config: { mcpServers: { crashy: fixtureEntry('crashy', file) } },
    timings: { pingIntervalMs: 200, pingTimeoutMs: 300 },
  });
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');
  await child.withClient((client) => client.callTool({ name: 'freeze', arguments: {} }));
  await waitFor('the restart', () => starts(file).length === 2 && child.status === 'up');
  t.pass('restarted after the pings went unanswered');
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
    slow.ensureUp().then(() => undefined, (error: Error) => error),
    silent.ensureUp().then(() => undefined, (error: Error) => error),
    missing.ensureUp().then(() => undefined, (error: Error) => error),
  ]);
  t.match(slowError?.message, /^server "slow" did not start within 1 s: no answer within/);
  t.match(silentError?.message, /^server "silent" did not start within 1 s: no answer within/);
  t.match(missingError?.message, /^server "missing" did not start within 1 s: .*ENOENT/);
  t.equal(slow.status, 'down');
  t.match(slow.lastError, /no answer within/, 'the reason is kept for error messages');
  t.equal(missing.status, 'down');
  await waitFor('the slow and silent processes to end', () => [...starts(join(directory, 'slow')), ...starts(join(directory, 'silent'))].every((start) => !isAlive(start.pid)));
  t.pass('no process outlives its budget');
});
