import module from 'node:module';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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

t.test('a started process runs without processinfo and the setup; a fixture server or a package script also without coverage', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'child-env-'));
  const printEnv = 'console.log(JSON.stringify({ options: process.env.NODE_OPTIONS ?? null, coverage: process.env.NODE_V8_COVERAGE ?? null }));\n';
  const script = async (...path: string[]) => {
    await mkdir(join(root, ...path.slice(0, -1)), { recursive: true });
    await writeFile(join(root, ...path), printEnv);
    return join(root, ...path);
  };
  const coverage = await mkdtemp(join(tmpdir(), 'child-env-coverage-'));
  const env = { NODE_V8_COVERAGE: coverage, NODE_OPTIONS: `--max-old-space-size=300 ${process.env.NODE_OPTIONS ?? ''}` };
  const seen = async (path: string) => {
    const result = await runNode(path, [], env);
    t.equal(result.code, 0, result.stderr);
    const seen = JSON.parse(result.stdout) as { options: string | null; coverage: string | null };
    return { options: seen.options === null ? null : nodeOptionsToArgv(seen.options), coverage: seen.coverage };
  };

  const hub = await seen(await script('dist', 'core', 'cli', 'hub.js'));
  t.same(hub, { options: ['--max-old-space-size=300'], coverage }, "a hub's own script: coverage kept, the test's setup gone, other options kept");
  const fixture = await seen(await script('dist', 'test', 'fixtures', 'children', 'server.js'));
  t.same(fixture, { options: ['--max-old-space-size=300'], coverage: null }, 'a fixture child: no coverage');
  const server = await seen(await script('dist', 'test', 'fixtures', 'servers', 'server.js'));
  t.equal(server.coverage, null, 'a fixture server: no coverage');
  const packaged = await seen(await script('node_modules', '@modelcontextprotocol', 'conformance', 'cli.js'));
  t.equal(packaged.coverage, null, "a package's script: no coverage");
  const other = await seen(await script('dist', 'test', 'fixtures', 'process', 'warns.js'));
  t.equal(other.coverage, coverage, 'a fixture that may import the hub keeps its coverage');
});
