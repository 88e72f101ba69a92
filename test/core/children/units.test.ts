import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import Fastify from 'fastify';
import t from 'tap';
import { ChildRegistry } from '../../../core/children/registry.js';
import { SnapshotStore } from '../../../core/children/snapshot.js';
import { backoffDelay } from '../../../core/children/timings.js';
import { settingsFromEnvironment } from '../../../core/config/settings.js';
import { StderrLog } from '../../../core/children/stderr-log.js';
import { tempDir, type LogLine } from './helpers.js';

function capturedLog() {
  const lines: LogLine[] = [];
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } } });
  return { log: app.log, lines };
}

t.test('back-off doubles from the base up to the maximum', async (t) => {
  const timings = { backoffBaseMs: 100, backoffMaxMs: 1_000 };
  t.same(
    [1, 2, 3, 4, 5, 6].map((failures) => backoffDelay(failures, timings)),
    [100, 200, 400, 800, 1_000, 1_000],
  );
});

t.test('IDLE_TIMEOUT_MINUTES reaches the child timings; bad values are refused, naming it', async (t) => {
  t.equal(settingsFromEnvironment({ IDLE_TIMEOUT_MINUTES: '0' }).idleTimeoutMinutes, 0);
  t.throws(() => settingsFromEnvironment({ IDLE_TIMEOUT_MINUTES: 'soon' }), {
    code: 'HUB_ERR_SETTING_INVALID',
    message: /^IDLE_TIMEOUT_MINUTES: expected a number of at least 0 \(got "soon"\)$/,
  });
  t.equal(settingsFromEnvironment({}).idleTimeoutMinutes, 60);
  const { log } = capturedLog();
  const registry = new ChildRegistry(log, { name: 'test', version: '1' }, { idleTimeoutMinutes: 0.5 });
  t.equal(registry.timings.idleTimeoutMs, 30_000);
  registry.configure({ backoffBaseMs: 5 });
  t.equal(registry.timings.backoffBaseMs, 5);
  t.equal(registry.timings.idleTimeoutMs, 30_000);
  t.same(registry.types.names(), ['in-process'], 'the kernel registers only the in-process type; plugins add the rest');
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
  t.ok(
    lines.some((line) => line.msg === 'tool snapshot not written'),
    'a failed write is logged, not thrown',
  );
});

t.test('stderr becomes log records, a burst in one, bounded in size and rate', async (t) => {
  const { log, lines } = capturedLog();
  const stderr = new StderrLog('srv', log, { maxLineLength: 10, linesPerMinute: 3 });
  stderr.write('one\r\ntwo\n\n');
  stderr.write('a very long line indeed\nfour\nfive');
  stderr.write('x'.repeat(20));
  stderr.end();
  const messages = lines.map((line) => line.msg);
  t.same(messages[0], 'srv: one\ntwo\na very lon… (23 characters)', 'lines that arrive together are one record');
  t.match(lines[0], { stream: 'stderr', lines: 3 });
  t.match(messages.at(-1), /^srv: 2 stderr lines dropped \(more than 3 a minute\)$/);
  t.equal(stderr.lastLine, 'fivexxxxxx… (24 characters)', 'the last line is kept even when dropped from the log');
});

t.test('the stderr line that says why is picked out, and a burst repeated by the next start is not logged again', async (t) => {
  const { log, lines } = capturedLog();
  const memory = {};
  const trace = "node:internal/modules/cjs/loader:1228\n  throw err;\nError: Cannot find module '/x.js'\n    at Module._resolveFilename (node:internal)\n}\n\nNode.js v20.20.2\n";
  for (let start = 0; start < 2; start += 1) {
    const stderr = new StderrLog('srv', log, { maxLineLength: 200, linesPerMinute: 100 }, memory);
    stderr.write(trace);
    stderr.end();
    t.equal(stderr.cause, "Error: Cannot find module '/x.js'", 'the error line, not the version banner');
  }
  t.equal(lines.length, 2);
  t.match(lines[0]?.msg, /^srv: node:internal[^]*Node\.js v20/);
  t.equal(lines[1]?.msg, 'srv: the same 6 stderr lines as last time');
  const plain = new StderrLog('srv', log, { maxLineLength: 200, linesPerMinute: 100 });
  plain.write('listening\nbye\n');
  plain.end();
  t.equal(plain.cause, 'bye', 'without an error line, the last line');
});
