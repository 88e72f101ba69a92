import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { runNode } from '../helpers/cli.js';

// Issue 59: what tap's "after" script leaves of the run's coverage for c8's report.
const script = fileURLToPath(new URL('../../scripts/compact-coverage.js', import.meta.url));
const own = (path: string) => pathToFileURL(fileURLToPath(new URL(`../../${path}`, import.meta.url))).href;

t.test("each coverage file keeps the project's compiled scripts and nothing else; one that does not parse is left alone", async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'compact-coverage-'));
  const covered = (url: string) => ({ scriptId: '1', url, functions: [{ functionName: '', isBlockCoverage: true, ranges: [{ startOffset: 0, endOffset: 10, count: 1 }] }] });
  const kept = [own('core/kernel.js'), own('plugins/oauth-as/index.js'), own('test/helpers/hub.js')];
  const dropped = ['node:internal/modules/esm/loader', own('node_modules/fastify/fastify.js'), 'file:///elsewhere/dist/core/kernel.js', 'evalmachine.<anonymous>'];
  await writeFile(
    join(folder, 'coverage-1.json'),
    JSON.stringify({ result: [...dropped, ...kept].map(covered), timestamp: 1, 'source-map-cache': { [own('core/kernel.js')]: { data: { version: 3, mappings: '' } } } }),
  );
  await writeFile(join(folder, 'coverage-2.json'), JSON.stringify({ result: [covered(dropped[0] ?? '')] }));
  const partial = '{"result":[{"scriptId":"1","url":"node:fs"';
  await writeFile(join(folder, 'coverage-3.json'), partial);

  const run = await runNode(script, [folder], {});
  t.equal(run.code, 0, run.stderr);
  t.match(run.stdout, /^# compact-coverage: 3 coverage files kept to this project's scripts; 1 did not parse and were left as they were$/m, 'a TAP comment says what was done');
  const read = async (name: string) => JSON.parse(await readFile(join(folder, name), 'utf8')) as Record<string, unknown>;
  t.same(await read('coverage-1.json'), { result: kept.map(covered) }, "the project's scripts, whole, and no source maps");
  t.same(await read('coverage-2.json'), { result: [] }, 'a process that ran none of them keeps an empty result');
  t.equal(await readFile(join(folder, 'coverage-3.json'), 'utf8'), partial, 'a file being written is left as it is');
  t.same((await readdir(folder)).sort(), ['coverage-1.json', 'coverage-2.json', 'coverage-3.json'], 'nothing else is left in the folder');
});

t.test('without NODE_V8_COVERAGE (a run of one file without c8) there is nothing to do', async (t) => {
  const run = await runNode(script, [], { NODE_V8_COVERAGE: undefined });
  t.equal(run.code, 0, run.stderr);
  t.equal(run.stdout, '');
});
