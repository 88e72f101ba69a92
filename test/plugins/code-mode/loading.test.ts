import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { runNode } from '../../helpers/cli.js';
import { freePort } from '../../helpers/net.js';

// The plugin's code and QuickJS load only when the plugin is enabled, and the sandbox
// (with its WebAssembly) only at the first run. Each hub runs in a process of its own,
// which reports every module it loaded (fixtures/loading/loaded-modules.ts).
const reporter = fileURLToPath(new URL('../../fixtures/loading/loaded-modules.js', import.meta.url));

async function loadedWith(plugins: Record<string, unknown>): Promise<string[]> {
  const folder = await mkdtemp(join(tmpdir(), 'code-mode-loading-'));
  const config = join(folder, 'mcp.json');
  await writeFile(config, JSON.stringify({ plugins: { 'map-tools': false, ...plugins }, mcpServers: {} }));
  const result = await runNode(reporter, ['hub'], {
    HUB_CONFIG: config,
    DATA_PATH: join(folder, 'data'),
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    HUB_PASSWORD: 'lazy',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
  });
  t.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout) as string[];
}

const has = (urls: string[], part: string) => urls.some((url) => url.includes(part));

t.test('off by default: nothing of it is loaded', async (t) => {
  const loaded = await loadedWith({});
  for (const part of ['/node_modules/quickjs-emscripten-core/', '/node_modules/@jitl/', '/node_modules/sucrase/', '/plugins/code-mode/index.js', '/plugins/code-mode/sandbox.js'])
    t.notOk(has(loaded, part), `${part} is not loaded`);
});

t.test('enabled: the plugin is loaded, the sandbox and QuickJS not before a run', async (t) => {
  const loaded = await loadedWith({ 'code-mode': true });
  t.ok(has(loaded, '/plugins/code-mode/index.js'), 'the plugin is loaded');
  for (const part of ['/node_modules/quickjs-emscripten-core/', '/node_modules/@jitl/', '/plugins/code-mode/sandbox.js']) t.notOk(has(loaded, part), `${part} waits for the first run`);
});
