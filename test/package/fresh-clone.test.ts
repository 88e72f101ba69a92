import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

// A clone anywhere passes its tests: the data they read is in the tree, not in a folder
// that happens to sit beside this workplace's checkout. The clone lives in a fresh
// temporary folder, so nothing beside it (nothing of this workplace) can be found by accident.
const run = promisify(execFile);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

t.test('a fresh clone with nothing beside it runs a map-tools test file', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'fresh-clone-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const clone = join(folder, 'clone');
  await run('git', ['clone', '--quiet', '--depth', '1', `file://${repoRoot}`, clone]);
  t.notOk(existsSync(join(folder, 'shared')), 'nothing lies beside the clone');
  t.ok(existsSync(join(clone, 'test/fixtures/osm/monaco.osm.pbf')), 'the extract is part of the tree');
  t.ok(existsSync(join(clone, 'test/fixtures/osm/NOTICE')), 'with its licence notice');
  // The dependencies are the checkout's (nothing to download); the build is the clone's own,
  // with the project's compiler options, of the test file and what it imports (the decode
  // worker is started by its path, so it is named too): the whole project's build would
  // cost three times the CPU and test nothing more here.
  await symlink(join(repoRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');
  await writeFile(
    join(clone, 'tsconfig.fresh-clone.json'),
    JSON.stringify({ extends: './tsconfig.json', include: [], files: ['test/plugins/map-tools/offline/providers.test.ts', 'plugins/map-tools/offline/decode-worker.ts'] }),
  );
  await run(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.fresh-clone.json'], { cwd: clone });
  const test = join(clone, 'dist/test/plugins/map-tools/offline/providers.test.js');
  // execFile rejects on a non-zero exit, which a failing subtest gives.
  const { stdout } = await run(process.execPath, [test], { cwd: clone, env: { ...process.env, TAP: '1' } });
  t.match(stdout, /^ok \d+ - the provider set answers offline/m, 'the map-tools test file passes in the clone');
  t.notMatch(stdout, /^\s*not ok /m);
});
