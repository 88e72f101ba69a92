import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { startHubBin } from '../helpers/hub-bin.js';

// The package as a user gets it: `npm pack`, installed into a fresh app beside a
// third-party plugin packaged on its own, which imports only the plugin surface; the
// config and the type check are docs/plugins.md's own blocks, taken as they are written.
// It runs on whatever Node runs it: .ci/run runs it on Node 22 and 24 too, and npm (and
// so its engine checks) runs on that same Node.
const run = promisify(execFile);
const line = Number(process.versions.node.split('.')[0]);
// npm and tsc are not the project: they write no coverage for c8 to merge.
const { NODE_V8_COVERAGE, ...environment } = process.env;
const onThisNode = { ...environment, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text?: string } | undefined)?.text;
/** The oldest Node line the hub supports: plugin authors compile against its types. */
const OLDEST_LINE = 20;

/** The fenced block of docs/plugins.md whose info string is `<language> <name>` (`json` unless said). */
async function docsBlock(name: string, language = 'json'): Promise<string> {
  const docs = await readFile(join(repo, 'docs', 'plugins.md'), 'utf8');
  const block = new RegExp('```' + language + ' ' + name.replace('.', '\\.') + '\\n([\\s\\S]*?)\\n```').exec(docs)?.[1];
  if (block === undefined) throw new Error(`docs/plugins.md has no ${language} block named ${name}`);
  return block;
}

/** The version of `name` installed in `folder`'s node_modules. */
async function versionOf(folder: string, name: string): Promise<string> {
  return (JSON.parse(await readFile(join(folder, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** What tsc reports for `project` in `folder` ('' when it compiles), run without the loaders the test runner puts in every Node child's NODE_OPTIONS, as a user's shell runs it. */
async function tsc(folder: string, project: string): Promise<string> {
  return run('env', ['-u', 'NODE_OPTIONS', process.execPath, join(folder, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: folder, env: onThisNode }).then(
    () => '',
    (error: unknown) => (error instanceof Error ? ('stdout' in error && String(error.stdout)) || error.message : String(error)),
  );
}

/** Packs `folder` into `into`, without building (npm test built the project). Resolves with the tarball's path. */
async function pack(folder: string, into: string): Promise<string> {
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', into], { cwd: folder, env: onThisNode });
  return join(into, stdout.trim().split('\n').at(-1) as string);
}

// npm installs and tsc runs: at load 20 the file took 255 s, past tap's 240 s (with three
// tsc runs; it took 124 s in CI at jobs=2); .ci/run gives the other Node lines 900 s too.
t.setTimeout(900_000);
t.test('the packed package, installed in a fresh app', async (t) => {
  const work = await mkdtemp(join(tmpdir(), 'hub-pack-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const hubPackage = await pack(repo, work);
  const pluginPackage = await pack(join(repo, 'examples', 'third-party-child-type'), work);
  const app = join(work, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }));
  // The compiler and the first set of Node types the declarations are checked with come in
  // the same install: each npm run resolves the whole tree again (about 10 s of CPU).
  const oldestChecked = process.env.OLDEST_TYPES_CHECKED === '1' && line !== OLDEST_LINE;
  const typeLines = [...new Set([...(oldestChecked ? [] : [OLDEST_LINE]), line])];
  const typescript = await versionOf(repo, 'typescript');
  const install = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=dev', '--loglevel=warn', hubPackage, pluginPackage, `typescript@${typescript}`, `@types/node@${typeLines[0] ?? line}`],
    {
      cwd: app,
      timeout: 600_000,
      env: onThisNode,
    },
  );
  const installed = join(app, 'node_modules', 'mcp-switchyard');
  // Issue 60, item 10: light-my-request is pinned to 6.6.0 (cookie@1, any Node line), so
  // an app on Node 20 hears of no package that wants another Node either.
  const unsupported = [...install.stderr.matchAll(/EBADENGINE +package: '([^']+)'/g)].map((match) => match[1]);
  t.same(unsupported, [], `no package of the install wants another Node than ${process.version}`);
  const { engines } = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { engines: { node: string } };
  t.ok(
    engines.node.split('||').some((range) => range.trim().startsWith(`^${line}.`)),
    `engines names Node ${line}: ${engines.node}`,
  );

  await t.test('the package carries the plugin guide and the example it walks through', async (t) => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { repository?: { url?: string }; exports: Record<string, unknown> };
    t.ok(manifest.repository?.url, 'a repository field');
    t.match(await readFile(join(installed, 'docs', 'plugins.md'), 'utf8'), /# Writing a plugin/);
    t.match(await readFile(join(installed, 'examples', 'third-party-child-type', 'index.js'), 'utf8'), /definePlugin/);
    t.same(
      Object.keys(manifest.exports)
        .filter((entry) => entry.startsWith('./plugin'))
        .sort(),
      [
        './plugin',
        './plugin/auth',
        './plugin/child-type',
        './plugin/errors',
        './plugin/interceptor',
        './plugin/meta-tool',
        './plugin/observe',
        './plugin/pages',
        './plugin/revision',
        './plugin/store',
      ],
      'the surface, split by role',
    );
  });

  // Each set of types is one tsc run over every entry's declarations and a typed plugin:
  // with skipLibCheck off, tsc checks the declarations of every dependency again in each
  // program (about 15 s of CPU), so the surface and the plugin share one. The oldest
  // line's types are the ones plugin authors compile against; on the oldest line they are
  // also this Node's. .ci/run sets OLDEST_TYPES_CHECKED=1 on its runs on the other lines:
  // npm test has just checked the oldest line's types, and tsc (a native binary) reads the
  // same declarations and types whichever Node runs this file.
  if (oldestChecked) t.comment(`the types of Node ${OLDEST_LINE} are not checked again here: OLDEST_TYPES_CHECKED=1`);
  for (const types of typeLines) {
    const which = [...(types === OLDEST_LINE ? ['the oldest line'] : []), ...(types === line ? ["this Node's line"] : [])].join(' and ');
    await t.test(`the declarations and a typed plugin compile under strict with @types/node ${types}, ${which}${types === OLDEST_LINE ? ', and so does the third-party plugin' : ''}`, async (t) => {
      const has = await Promise.all([versionOf(app, 'typescript'), versionOf(app, '@types/node')]).catch(() => undefined);
      if (has?.[0] !== typescript || has[1].split('.')[0] !== String(types)) {
        await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-save', '--loglevel=error', `typescript@${typescript}`, `@types/node@${types}`], {
          cwd: app,
          timeout: 600_000,
          env: onThisNode,
        });
      }
      t.equal(await versionOf(app, '@types/node').then((version) => version.split('.')[0]), String(types), `the app has @types/node ${types}`);
      const entries = [
        'mcp-switchyard',
        'mcp-switchyard/plugin',
        ...['auth', 'child-type', 'errors', 'interceptor', 'meta-tool', 'observe', 'pages', 'revision', 'store'].map((role) => `mcp-switchyard/plugin/${role}`),
      ];
      await writeFile(
        join(app, 'surface.ts'),
        `${entries.map((entry, index) => `import type * as E${index} from '${entry}';`).join('\n')}\nexport type Surface = [${entries.map((_, index) => `typeof E${index}`).join(', ')}];\n`,
      );
      await writeFile(
        join(app, 'plugin.ts'),
        `import { definePlugin, type ChildType } from 'mcp-switchyard/plugin';
import { Type } from 'typebox';
const type: ChildType = { type: 'typed', entrySchema: Type.Object({}), alwaysRunning: () => false, connect: () => Promise.reject(new Error('none')) };
export default definePlugin({ name: 'typed', description: 'compiles', options: Type.Object({}), register(_app, _options, hub) { hub.childTypes.add('typed', type); } });
`,
      );
      // The docs' options, but for JavaScript, which these two files are not.
      const docsConfig = JSON.parse(await docsBlock('tsconfig.json')) as { compilerOptions: Record<string, unknown> };
      await writeFile(join(app, 'tsconfig.surface.json'), JSON.stringify({ compilerOptions: { ...docsConfig.compilerOptions, allowJs: false, checkJs: false }, files: ['surface.ts', 'plugin.ts'] }));
      t.equal(await tsc(app, 'tsconfig.surface.json'), '', "tsconfig.surface.json (every entry's declarations, and plugin.ts) compiles without an error");
      if (types === OLDEST_LINE) {
        await writeFile(join(app, 'tsconfig.json'), await docsBlock('tsconfig.json'));
        t.equal(await tsc(app, 'tsconfig.json'), '', "docs/plugins.md's tsconfig.json compiles without an error");
      }
    });
  }
  await t.test('a third-party child type loaded by package name is reached through /hub and /<name>/mcp on both revisions', async (t) => {
    const hub = await startHubBin(t, {
      folder: app,
      bin: join(installed, 'dist', 'core', 'cli', 'hub.js'),
      config: JSON.parse(await docsBlock('mcp.json')) as Record<string, unknown>,
    });
    for (const revision of REVISIONS) {
      const own = await connectClient(t, `${hub.url}/faq/mcp`, revision);
      t.equal(text(await own.callTool({ name: 'opening_hours', arguments: {} })), '9 to 5', `${revision}: /faq/mcp`);
      const aggregate = await connectClient(t, `${hub.url}/hub`, revision);
      t.equal(text(await aggregate.callTool({ name: 'call_tool', arguments: { server: 'faq', tool: 'opening_hours' } })), '9 to 5', `${revision}: /hub call_tool`);
    }
  });

  await t.test("a third-party interceptor, docs/plugins.md's worked example, acts on /<name>/mcp and /hub call_tool on both revisions", async (t) => {
    await writeFile(join(app, 'no-deletes.js'), await docsBlock('no-deletes.js', 'js'));
    const config = JSON.parse(await docsBlock('mcp.json')) as { plugins?: Record<string, unknown> };
    const hub = await startHubBin(t, {
      folder: app,
      bin: join(installed, 'dist', 'core', 'cli', 'hub.js'),
      config: { ...config, plugins: { ...config.plugins, './no-deletes.js': { stamp: 'stamped' } } },
    });
    const texts = (result: unknown) => (result as CallToolResult).content.map((block) => (block as { text?: string }).text);
    for (const revision of REVISIONS) {
      const own = await connectClient(t, `${hub.url}/faq/mcp`, revision);
      t.same(texts(await own.callTool({ name: 'opening_hours', arguments: {} })), ['9 to 5', 'stamped'], `${revision}: /faq/mcp`);
      const aggregate = await connectClient(t, `${hub.url}/hub`, revision);
      t.same(texts(await aggregate.callTool({ name: 'call_tool', arguments: { server: 'faq', tool: 'opening_hours' } })), ['9 to 5', 'stamped'], `${revision}: /hub call_tool`);
    }
  });

  await t.test('the kernel embedded in a Fastify app with one register', async (t) => {
    const program = join(app, 'embed.mjs');
    await writeFile(
      program,
      `import Fastify from 'fastify';
import { hub } from 'mcp-switchyard';
const app = Fastify();
app.get('/hello', async () => ({ hello: 'app' }));
await app.register(hub, { prefix: '/tools', env: { DATA_PATH: ${JSON.stringify(join(work, 'embed-data'))} }, config: { mcpServers: {}, plugins: { 'oauth-as': false } } });
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(\`http://127.0.0.1:\${app.server.address().port}\\n\`);
`,
    );
    const child = spawn(process.execPath, [program], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    t.teardown(() => child.kill());
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child.once('exit', (code) => reject(new Error(`the app exited (${String(code)}): ${stderr}`)));
    });
    t.same(await (await fetch(`${url}/hello`)).json(), { hello: 'app' }, "the app's own route");
    t.equal((await fetch(`${url}/tools/health`)).status, 200, "the hub's, under its prefix");
    const client = await connectClient(t, `${url}/tools/hub`, '2026-07-28');
    t.ok(
      (await client.listTools()).tools.some((tool) => tool.name === 'list_servers'),
      'the meta-tools',
    );
  });
});
