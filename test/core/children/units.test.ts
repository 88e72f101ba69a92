import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import Fastify from 'fastify';
import t from 'tap';
import { ChildRegistry } from '../../../core/children/registry.js';
import { SnapshotStore } from '../../../core/children/snapshot.js';
import { backoffDelay } from '../../../core/children/timings.js';
import { settingsFromEnvironment } from '../../../core/settings.js';
import { StderrLog } from '../../../core/children/stderr-log.js';
import { tempDir, type LogLine } from './helpers.js';

function capturedLog() {
  const lines: LogLine[] = [];
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } } });
  return { log: app.log, lines };
}

t.test('back-off doubles from the base up to the maximum', async (t) => {
  const timings = { backoffBaseMs: 100, backoffMaxMs: 1_000 };
  t.same([1, 2, 3, 4, 5, 6].map((failures) => backoffDelay(failures, timings)), [100, 200, 400, 800, 1_000, 1_000]);
});

t.test('IDLE_TIMEOUT_MINUTES reaches the child timings; bad values keep the default', async (t) => {
  t.equal(settingsFromEnvironment({ IDLE_TIMEOUT_MINUTES: '0' }).idleTimeoutMinutes, 0);
  t.equal(settingsFromEnvironment({ IDLE_TIMEOUT_MINUTES: 'soon' }).idleTimeoutMinutes, 60);
  t.equal(settingsFromEnvironment({}).idleTimeoutMinutes, 60);
  const { log } = capturedLog();
  const registry = new ChildRegistry(log, { name: 'test', version: '1' }, { idleTimeoutMinutes: 0.5 });
  t.equal(registry.timings.idleTimeoutMs, 30_000);
  registry.configure({ backoffBaseMs: 5 });
  t.equal(registry.timings.backoffBaseMs, 5);
  t.equal(registry.timings.idleTimeoutMs, 30_000);
  t.ok(['in-process', 'http', 'sse', 'unix', 'tcp'].every((type) => registry.types.has(type)), 'the built-in types are registered');
});

t.test('snapshots are written atomically, only when changed, and bad ones are ignored', async (t) => {
  const dataPath = await tempDir(t);
  const { log, lines } = capturedLog();
  const store = new SnapshotStore(dataPath, log);
  const snapshot = { version: 1 as const, name: 'one', tools: [{ name: 'a', inputSchema: { type: 'object' } }] };
  await store.save(snapshot);
  t.same(JSON.parse(await readFile(store.path('one'), 'utf8')), snapshot);
  await writeFile(store.path('one'), 'changed behind our back');
  await store.save(snapshot);
  t.equal(await readFile(store.path('one'), 'utf8'), 'changed behind our back', 'an unchanged snapshot is not written again');
  await store.save({ ...snapshot, title: 'One' });
  await store.flush();
  t.same((await readdir(store.directory)).sort(), ['one.json'], 'no temporary file is left');
  t.equal((await store.load('one'))?.title, 'One');
  t.equal(await store.load('missing'), undefined);
  await writeFile(store.path('bad'), '[]');
  t.equal(await store.load('bad'), undefined);
  await mkdir(store.path('dir'), { recursive: true });
  t.equal(await store.load('dir'), undefined, 'an unreadable snapshot is ignored');
  t.ok(lines.some((line) => line.msg === 'tool snapshot corrupt; ignored'));
  t.ok(lines.some((line) => line.msg === 'tool snapshot unreadable; ignored'));

  const blocked = new SnapshotStore(store.path('one'), log);
  await blocked.save(snapshot);
  t.ok(lines.some((line) => line.msg === 'tool snapshot not written'), 'a failed write is logged, not thrown');
});

t.test('stderr becomes log lines, bounded in size and rate', async (t) => {
  const { log, lines } = capturedLog();
  const stderr = new StderrLog('srv', log, { maxLineLength: 10, linesPerMinute: 3 });
  stderr.write('one\r\ntwo\n\n');
  stderr.write('a very long line indeed\nfour\nfive');
  stderr.write('x'.repeat(20));
  stderr.end();
  const messages = lines.map((line) => line.msg);
  t.same(messages.slice(0, 3), ['srv: one', 'srv: two', 'srv: a very lon… (23 characters)']);
  t.match(messages.at(-1), /^srv: 2 stderr lines dropped \(more than 3 a minute\)$/);
  t.equal(stderr.lastLine, 'fivexxxxxx… (24 characters)', 'the last line is kept even when dropped from the log');
});
