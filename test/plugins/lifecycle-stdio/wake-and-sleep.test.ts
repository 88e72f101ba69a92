import { join } from 'node:path';
import { createRequire } from 'node:module';
import t from 'tap';
import { fixtureEntry, isAlive, startHub, starts, tempDir, waitFor } from '../../core/children/helpers.js';
import { ManualClock } from '../../helpers/clock.js';

t.test('ten concurrent first uses start exactly one process', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const { hub } = await startHub(t, { config: { mcpServers: { crashy: fixtureEntry('crashy', file) } } });
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');
  t.equal(child.status, 'sleeping', 'an on-demand server starts asleep');
  t.notOk(child.alwaysRunning);
  const seen = new Set<string>();
  const clients = Promise.all(Array.from({ length: 10 }, () => child.ensureUp()));
  seen.add(child.status);
  const connected = await clients;
  seen.add(child.status);
  t.same([...seen], ['starting', 'up'], 'sleeping -> starting -> up');
  t.equal(new Set(connected).size, 1, 'every caller got the same client');
  t.equal(starts(file).length, 1, 'one process was started');
  t.equal(child.revision, '2025-11-25', 'stdio children speak 2025-11-25 by default (no probe)');
  t.equal(child.description, 'Fixture crashy');
  t.equal(child.instructions, 'Instructions of crashy.');
  const result = await child.withClient((client) => client.callTool({ name: 'echo', arguments: {} }));
  t.same(result.content, [{ type: 'text', text: 'ok' }]);
});

t.test('an idle server sleeps: its process ends and the next use starts a new one', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const clock = new ManualClock();
  const { hub } = await startHub(t, {
    config: { mcpServers: { crashy: fixtureEntry('crashy', file) } },
    timings: { idleTimeoutMs: 300_000 },
    clock,
  });
  const child = hub.children.get('crashy');
  if (!child) throw new Error('no child');
  await child.ensureUp();
  const first = starts(file)[0];
  if (!first) throw new Error('no start recorded');
  clock.advance(299_999);
  t.equal(child.status, 'up', 'not before the idle timeout');
  clock.advance(1);
  await waitFor('the idle sleep', () => child.status === 'sleeping');
  await waitFor('the process to end', () => !isAlive(first.pid));
  t.pass('the idle child process ended');
  t.same(child.tools.map((tool) => tool.name).sort(), ['crash', 'echo', 'freeze'], 'a sleeping server keeps its tool list');
  await child.ensureUp();
  t.equal(child.status, 'up');
  t.equal(starts(file).length, 2, 'the next use started the child again');
});

t.test('sleep() ends the process at once; an always-running server refuses it', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const { hub } = await startHub(t, {
    config: {
      mcpServers: {
        crashy: fixtureEntry('crashy', file),
        kept: fixtureEntry('crashy', join(directory, 'kept'), { keepAlive: true }),
      },
    },
  });
  const child = hub.children.get('crashy');
  const kept = hub.children.get('kept');
  if (!child || !kept) throw new Error('no child');
  await child.ensureUp();
  const pid = starts(file)[0]?.pid ?? 0;
  await child.sleep();
  t.equal(child.status, 'sleeping');
  await waitFor('the process to end', () => !isAlive(pid));
  await child.sleep();
  t.equal(child.status, 'sleeping', 'sleeping a sleeping server changes nothing');

  t.ok(kept.alwaysRunning, 'keepAlive makes a stdio server always-running');
  await waitFor('the kept server to be up', () => kept.status === 'up');
  await t.rejects(kept.sleep(), /"kept" is always running$/);
});

t.test('a sleep during a start ends the starting process', async (t) => {
  const directory = await tempDir(t);
  const file = join(directory, 'starts');
  const { hub } = await startHub(t, { config: { mcpServers: { slow: fixtureEntry('slow-start', file, { env: { START_DELAY_MS: '60000' } }) } } });
  const child = hub.children.get('slow');
  if (!child) throw new Error('no child');
  const waking = child.ensureUp();
  await waitFor('the process to start', () => starts(file).length === 1);
  await child.sleep();
  await t.rejects(waking, /"slow" was put to sleep while starting/);
  t.equal(child.status, 'sleeping');
  await waitFor('the process to end', () => !isAlive(starts(file)[0]?.pid ?? 0));
});

t.test('server-everything runs as a stdio child', async (t) => {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const { hub } = await startHub(t, { config: { mcpServers: { everything: { command: process.execPath, args: [entry, 'stdio'] } } } });
  const child = hub.children.get('everything');
  if (!child) throw new Error('no child');
  const result = await child.withClient((client) => client.callTool({ name: 'echo', arguments: { message: 'hello' } }));
  t.match(JSON.stringify(result.content), /hello/);
  t.ok(child.findTool('echo')?.inputSchema, 'the full tool list with schemas is held');
});
