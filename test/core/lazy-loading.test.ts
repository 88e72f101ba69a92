import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { cliPath, runNode } from '../helpers/cli.js';
import { freePort } from '../helpers/net.js';

// Issue 26, item 1: a deployment loads what it uses. Each program runs in a process of its
// own, which reports every module it loaded (fixtures/loading/loaded-modules.ts).
const reporter = fileURLToPath(new URL('../fixtures/loading/loaded-modules.js', import.meta.url));
const dist = fileURLToPath(new URL('../../', import.meta.url));

async function loadedBy(program: string, env: Record<string, string> = {}, args: string[] = []): Promise<string[]> {
  const result = await runNode(reporter, [program, ...args], env);
  if (result.code !== 0) throw new Error(`${program} failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

/** The packages among the modules (`@scope/name` or `name`). */
function packagesOf(urls: string[]): Set<string> {
  return new Set(urls.flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? []));
}

/** The hub's own files among the modules, relative to dist/. */
function ownFiles(urls: string[]): string[] {
  return urls.filter((url) => url.startsWith('file://') && fileURLToPath(url).startsWith(dist) && !fileURLToPath(url).includes('/node_modules/')).map((url) => fileURLToPath(url).slice(dist.length));
}

t.test('the hub with one stdio server loads no driver, engine or exporter it does not use', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'lazy-hub-'));
  const config = join(folder, 'mcp.json');
  // lifecycle-docker is on by default: switched off here, it must not even be imported.
  await writeFile(config, JSON.stringify({ plugins: { 'lifecycle-docker': false }, mcpServers: { sleeper: { command: process.execPath, args: ['-e', ''] } } }));
  const loaded = await loadedBy('hub', {
    HUB_CONFIG: config,
    DATA_PATH: join(folder, 'data'),
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    HUB_PASSWORD: 'lazy',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
  });
  const packages = packagesOf(loaded);
  const files = ownFiles(loaded);
  t.ok(packages.has('fastify') && files.includes('plugins/lifecycle-stdio/index.js'), 'the report sees what the hub does load');
  for (const unused of [
    'mongodb',
    'dockerode',
    '@opentelemetry/sdk-trace-node',
    '@opentelemetry/exporter-trace-otlp-http',
    'pino-pretty',
    'undici',
    '@apidevtools/swagger-parser',
    '@openapi-contrib/openapi-schema-to-json-schema',
    'yaml',
  ]) {
    t.notOk(packages.has(unused), `${unused} is not loaded`);
  }
  const plugin = (name: string) => files.filter((file) => file.startsWith(`plugins/${name}/`) && !file.endsWith('/manifest.js'));
  t.same(plugin('map-tools'), [], 'no module of the map tools (off with a config) beyond their manifest');
  t.same(plugin('diagnostics'), [], 'nor of a plugin off by default');
  t.same(plugin('lifecycle-docker'), [], 'nor of a plugin the config switches off');
  t.same(
    plugin('lifecycle-openapi').sort(),
    ['plugins/lifecycle-openapi/entry.js', 'plugins/lifecycle-openapi/index.js'],
    'of the openapi type (on by default), only its entry schema without an openapi server',
  );
  t.same(
    plugin('virtual-servers').sort(),
    ['plugins/virtual-servers/check.js', 'plugins/virtual-servers/entry.js', 'plugins/virtual-servers/index.js'],
    'of the virtual type (on by default), only its entry schema and config check without a virtual server',
  );
});

t.test('the hub with an openapi server loads the OpenAPI parser', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'lazy-openapi-'));
  const config = join(folder, 'mcp.json');
  await writeFile(join(folder, 'api.yaml'), 'openapi: 3.1.0\ninfo: { title: Api, version: "1" }\npaths: {}\n');
  await writeFile(config, JSON.stringify({ plugins: { 'lifecycle-docker': false }, mcpServers: { api: { type: 'openapi', spec: './api.yaml', baseUrl: 'http://127.0.0.1:9' } } }));
  const loaded = await loadedBy('hub', {
    HUB_CONFIG: config,
    DATA_PATH: join(folder, 'data'),
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    HUB_PASSWORD: 'lazy',
    LOG_LEVEL: 'fatal',
    LOG_FORMAT: 'json',
  });
  t.ok(packagesOf(loaded).has('@apidevtools/swagger-parser'), 'the parser is loaded');
  t.ok(ownFiles(loaded).includes('plugins/lifecycle-openapi/runtime.js'), 'with the runtime of the type');
});

t.test('map-server loads the map engine and the SDK, not the gateway kernel', async (t) => {
  const loaded = await loadedBy('map-server');
  const packages = packagesOf(loaded);
  const files = ownFiles(loaded);
  t.ok(packages.has('@modelcontextprotocol/server') && files.includes('plugins/map-tools/server.js'), 'the report sees the map server');
  for (const gateway of ['fastify', 'pino', 'prom-client', 'jose', 'mongodb', '@seald-io/nedb', 'undici']) t.notOk(packages.has(gateway), `${gateway} is not loaded`);
  t.same(
    files.filter((file) => file.startsWith('core/')).sort(),
    ['core/cli/run.js', 'core/config/key-names.js', 'core/config/schema-errors.js', 'core/errors.js', 'core/plugin/errors.js', 'core/version.js'],
    'of the kernel, only the errors entry of the plugin surface and what it names',
  );
});

// Issue 59: hub-admin's usage and its store-only listings load the manifests, the store and
// the command's own file; the kernel, Fastify, the SDK and TypeBox only for commands that need the hub.
t.test('hub-admin --help and tokens list load no kernel, Fastify, SDK or TypeBox', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'lazy-admin-'));
  const env = { HUB_CONFIG: join(folder, 'mcp.json'), DATA_PATH: join(folder, 'data') };
  await mkdir(join(folder, 'data', 'store'), { recursive: true });
  const heavy = ['fastify', 'typebox', 'pino', 'jose', '@modelcontextprotocol/server', '@modelcontextprotocol/client', '@modelcontextprotocol/node', 'mongodb', 'undici', 'lru-cache'];
  const kernel = ['core/kernel.js', 'core/hub.js', 'core/server.js', 'core/config/settings.js', 'core/detached.js', 'core/config/load.js', 'core/plugins/resolve.js', 'core/cli/admin-hub.js'];

  const help = await loadedBy('hub-admin', env, ['--help']);
  const helpFiles = ownFiles(help);
  t.ok(helpFiles.includes('plugins/oauth-as/manifest.js'), 'the report sees the manifests --help reads');
  t.same([...packagesOf(help)], [], '--help loads no package');
  t.same(
    helpFiles.filter((file) => file.startsWith('plugins/') && !file.endsWith('/manifest.js')),
    [],
    '--help loads no plugin beyond its manifest',
  );
  t.same(
    helpFiles.filter((file) => file.startsWith('core/')).sort(),
    [
      'core/cli/admin-args.js',
      'core/cli/admin-command.js',
      'core/cli/admin-declared.js',
      'core/cli/admin-main.js',
      'core/cli/hub-admin.js',
      'core/cli/run.js',
      'core/config/read.js',
      'core/config/secret-files.js',
      'core/config/setting-paths.js',
      'core/errors.js',
      'core/operator/sessions-command.js',
      'core/plugins/builtins.js',
      'core/store/index.js',
      'core/store/lazy.js',
      'core/store/port.js',
    ],
    'of the kernel, --help loads the parser, the manifests reader and the store entry only',
  );

  const list = await loadedBy('hub-admin', env, ['tokens', 'list']);
  const listFiles = ownFiles(list);
  const packages = packagesOf(list);
  t.ok(packages.has('@seald-io/nedb') && listFiles.includes('plugins/oauth-as/admin-store.js'), 'the report sees the store and the listing tokens list loads');
  for (const name of heavy) t.notOk(packages.has(name), `tokens list does not load ${name}`);
  for (const file of kernel) t.notOk(listFiles.includes(file), `tokens list does not load ${file}`);
  t.same(
    listFiles.filter((file) => file.startsWith('plugins/oauth-as/')).sort(),
    ['plugins/oauth-as/admin-store.js', 'plugins/oauth-as/api-token-list.js', 'plugins/oauth-as/manifest.js', 'plugins/oauth-as/records.js'],
    'of oauth-as, only its manifest and the listing',
  );

  const mint = await runNode(cliPath('hub-admin'), ['tokens', 'mint', '--all'], env);
  const id = /^token id ([0-9a-f-]{36})/m.exec(mint.stderr)?.[1];
  if (!t.ok(id, 'a token to revoke', { stderr: mint.stderr })) return;
  // Revocations are writes to the store: they too run without the hub (with jose, which
  // decodes a token given whole, and lru-cache, which the plugin surface's store entry loads).
  for (const args of [
    ['tokens', 'revoke', id as string],
    ['clients', 'revoke', 'https://app.example/client.json'],
  ]) {
    const loaded = await loadedBy('hub-admin', env, args);
    const command = args.slice(0, 2).join(' ');
    t.ok(ownFiles(loaded).includes('plugins/oauth-as/revocations.js'), `the report sees what ${command} loads`);
    for (const name of heavy.filter((name) => name !== 'jose' && name !== 'lru-cache')) t.notOk(packagesOf(loaded).has(name), `${command} does not load ${name}`);
    for (const file of kernel) t.notOk(ownFiles(loaded).includes(file), `${command} does not load ${file}`);
  }
  t.match((await runNode(cliPath('hub-admin'), ['tokens', 'list'], env)).stdout, new RegExp(`^${id as string}\trevoked\t`, 'm'), 'the token revoked without the hub is listed as revoked');

  const withHub = await loadedBy('hub-admin', env, ['tokens', 'mint', '--all']);
  t.ok(packagesOf(withHub).has('fastify') && ownFiles(withHub).includes('core/kernel.js'), 'tokens mint, which needs the hub, still builds it: the report tells the two apart');
});
