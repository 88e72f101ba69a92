import module from 'node:module';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeOptionsToArgv } from 'node-options-to-argv';
import t from 'tap';
import { runNode } from '../helpers/cli.js';

// Issue 59: what the suite's setup (package.json "tap" test-env and node-arg) changes in a test
// process and in the processes it starts; each check fails if that setup is taken out.

t.test("a test process declines @tapjs/processinfo's module hooks, and only those", async (t) => {
  t.match(process.env.NODE_OPTIONS ?? '', /--import=\.\/dist\/test\/setup\/tests-without-module-hooks\.js/, "tap's test-env loads the setup first");
  const missing = await mkdtemp(join(tmpdir(), 'module-hooks-'));
  // Registering a loader that does not exist fails, unless the registration is declined.
  const processinfoLoader = pathToFileURL(join(missing, 'node_modules', '@tapjs', 'processinfo', 'dist', 'esm', 'loader.mjs')).href;
  t.doesNotThrow(() => module.register(processinfoLoader), "processinfo's loader is not registered");
  t.throws(() => module.register(pathToFileURL(join(missing, 'other-loader.mjs')).href), { code: 'ERR_MODULE_NOT_FOUND' }, 'another loader is registered as usual');
});

t.test('a started process runs without processinfo and the setup; a fixture server or a package script also without coverage; coverage without source maps', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'child-env-'));
  // An ES module that loads one with a source map, and prints what it was given.
  const printEnv = "import './mapped.mjs';\nconsole.log(JSON.stringify({ options: process.env.NODE_OPTIONS ?? null }));\n";
  const script = async (...path: string[]) => {
    const folder = join(root, ...path.slice(0, -1));
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'mapped.mjs'), 'export const mapped = 1;\n//# sourceMappingURL=mapped.mjs.map\n');
    await writeFile(join(folder, 'mapped.mjs.map'), JSON.stringify({ version: 3, sources: ['mapped.ts'], names: [], mappings: 'AAAA' }));
    await writeFile(join(root, ...path), printEnv);
    return join(root, ...path);
  };
  /** The NODE_OPTIONS the process was given, and the coverage it wrote: its scripts, and the source maps beside them. */
  const seen = async (path: string) => {
    const coverage = await mkdtemp(join(tmpdir(), 'child-env-coverage-'));
    const result = await runNode(path, [], { NODE_V8_COVERAGE: coverage, NODE_OPTIONS: `--max-old-space-size=300 ${process.env.NODE_OPTIONS ?? ''}` });
    t.equal(result.code, 0, result.stderr);
    const { options } = JSON.parse(result.stdout) as { options: string | null };
    const written = await Promise.all(
      (await readdir(coverage)).map(async (name) => JSON.parse(await readFile(join(coverage, name), 'utf8')) as { result: Array<{ url: string }>; 'source-map-cache'?: Record<string, unknown> }),
    );
    return {
      options: options === null ? null : nodeOptionsToArgv(options),
      covered: written.flatMap((file) => file.result.map((script) => script.url)).some((url) => url.endsWith('/mapped.mjs')),
      maps: written.flatMap((file) => Object.keys(file['source-map-cache'] ?? {})),
    };
  };

  const hub = await seen(await script('dist', 'core', 'cli', 'hub.mjs'));
  t.same(
    hub.options,
    [`--import=${fileURLToPath(new URL('./child-coverage-without-source-maps.js', import.meta.url))}`, '--max-old-space-size=300'],
    "a hub's own script: the test's setup gone, other options kept",
  );
  t.ok(hub.covered, 'its coverage is written');
  // Only the setup's own map is kept: Node read it before the setup ran.
  t.same(
    hub.maps.map((url) => url.slice(url.lastIndexOf('/') + 1)),
    ['child-coverage-without-source-maps.js'],
    'without the source maps of what it loaded',
  );
  for (const path of [
    ['dist', 'test', 'fixtures', 'children', 'server.mjs'],
    ['dist', 'test', 'fixtures', 'servers', 'server.mjs'],
    ['node_modules', '@modelcontextprotocol', 'conformance', 'cli.mjs'],
  ]) {
    const child = await seen(await script(...path));
    t.same(child, { options: ['--max-old-space-size=300'], covered: false, maps: [] }, `${path.join('/')}: no coverage, other options kept`);
  }
  const other = await seen(await script('dist', 'test', 'fixtures', 'process', 'warns.mjs'));
  t.ok(other.covered, 'a fixture that may import the hub keeps its coverage');
});

t.test('a test process and what it starts make their temporary folders in one of its own, removed at its exit', async (t) => {
  t.match(tmpdir(), /[\\/]hub-tests-[^\\/]+$/, "tap's node-arg gives the test process a folder of its own");
  const folder = await mkdtemp(join(tmpdir(), 'temporary-folder-'));
  const script = join(folder, 'writes-a-file.mjs');
  await writeFile(
    script,
    "import { writeFileSync } from 'node:fs';\nimport { tmpdir } from 'node:os';\nimport { join } from 'node:path';\nwriteFileSync(join(tmpdir(), 'written'), '');\nconsole.log(tmpdir());\n",
  );
  const started = await runNode(script, [], {});
  t.equal(started.code, 0, started.stderr);
  t.equal(started.stdout.trim(), tmpdir(), 'a started process inherits the folder');
  // The setup in a process of its own, as tap loads it: its folder, and what was written there, are gone after.
  const own = await runNode(script, [], { NODE_OPTIONS: `--import=${new URL('./temporary-folder.js', import.meta.url).href}` });
  t.equal(own.code, 0, own.stderr);
  const given = own.stdout.trim();
  t.equal(dirname(given), tmpdir(), "that process's folder was made in the temporary folder it was started with");
  t.notOk(existsSync(given), 'and removed at its exit, with the file written there');
});
