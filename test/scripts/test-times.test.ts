import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runNode } from '../helpers/cli.js';

// Issue 59: the slowest files of the last run, from tap's per-process records.
const script = fileURLToPath(new URL('../../scripts/test-times.js', import.meta.url));

t.test('test-times ranks the test files of .tap/processinfo by wall time, leaving out the processes they started', async (t) => {
  const project = await mkdtemp(join(tmpdir(), 'test-times-'));
  const records = join(project, '.tap', 'processinfo');
  await mkdir(records, { recursive: true });
  const record = (name: string, body: Record<string, unknown>) => writeFile(join(records, `${name}.json`), JSON.stringify(body));
  await record('a', { externalID: 'dist/test/quick.test.js', runtime: 1_000, date: '2026-01-01T00:00:00.000Z' });
  await record('b', { externalID: 'dist/test/slow.test.js', runtime: 30_000, date: '2026-01-01T00:00:01.000Z' });
  await record('c', { externalID: 'dist/test/middle.test.js', runtime: 9_000, date: '2026-01-01T00:00:02.000Z' });
  // A hub a test started: far slower, but not a test file.
  await record('d', { externalID: null, runtime: 99_000, date: '2026-01-01T00:00:01.000Z' });

  const result = await runNode(script, ['--top', '2', project], {});
  t.equal(result.code, 0, result.stderr);
  const lines = result.stdout.trim().split('\n');
  t.equal(lines[0], '3 test files, 40 s of file time within 31 s from the first start to the last end');
  t.same(
    lines.slice(2).map((line) => line.split('\t')),
    [
      ['1', '30.0', '75.0%', '75.0%', 'dist/test/slow.test.js'],
      ['2', '9.0', '22.5%', '97.5%', 'dist/test/middle.test.js'],
    ],
    'the two slowest, slowest first, with their share and the running share',
  );

  const empty = await mkdtemp(join(tmpdir(), 'test-times-empty-'));
  await mkdir(join(empty, '.tap', 'processinfo'), { recursive: true });
  const none = await runNode(script, [empty], {});
  t.not(none.code, 0, 'no record: a failure');
  t.match(none.stderr, /no test file's record in .*run npm test first/);
});
