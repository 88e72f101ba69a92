// bench/inspector.ts on a real child Node process started as the memory benches start the
// hub (`--inspect-port=127.0.0.1:0`, the inspector started later by SIGUSR1): the files it
// lists are those the child loaded, ES module, CommonJS and JSON alike, and a full
// collection frees what the child let go.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { collectGarbage, INSPECT_PORT_ARG, loadedFiles, openInspector } from '../../bench/inspector.js';

/** Elements of the array the child lets go: 8 bytes a slot, so 8 MB. */
const SLOTS = 1_000_000;

t.test('the inspector lists the loaded files and collects what the process let go', async (t) => {
  const folder = await realpath(await mkdtemp(join(tmpdir(), 'bench-inspector-')));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const main = join(folder, 'main.mjs');
  const common = join(folder, 'common.cjs');
  const data = join(folder, 'data.json');
  const unused = join(folder, 'unused.mjs');
  await writeFile(data, '{"answer":42}');
  await writeFile(common, "module.exports = require('./data.json').answer;");
  await writeFile(unused, 'export const never = 1;');
  await writeFile(
    main,
    [`import answer from './common.cjs';`, `globalThis.held = new Array(${SLOTS}).fill(answer);`, "process.stdout.write('ready\\n');", 'setInterval(() => undefined, 2 ** 30);'].join('\n'),
  );
  const child = spawn(process.execPath, [INSPECT_PORT_ARG, main], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  t.teardown(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  await once(child.stdout, 'data');

  const link = await openInspector(child);
  t.teardown(() => link.close());
  const files = await loadedFiles(link);
  t.ok(files.includes(main), 'the ES module');
  t.ok(files.includes(common), 'the CommonJS module');
  t.ok(files.includes(data), 'the JSON file CommonJS required (it has no script)');
  t.notOk(files.includes(unused), 'not a file it never imported');
  t.ok(
    files.every((file) => file.startsWith('/')),
    "files only: none of Node's own modules",
  );

  const holding = await collectGarbage(link);
  await link.call('Runtime.evaluate', { expression: 'globalThis.held = undefined' });
  const released = await collectGarbage(link);
  t.ok(holding - released >= SLOTS * 4, `the collection freed the let-go array (heap ${holding} bytes, then ${released})`);
});
