import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { expandEnvironment } from '../../core/config/expand.js';
import { checkConfig, loadConfigFile, MAX_CONFIG_BYTES, parseConfig } from '../../core/config/load.js';
import { pointerToPath } from '../../core/config/schema-errors.js';
import { settingsFromEnvironment } from '../../core/config/settings.js';

t.test('Claude Code entries copy 1:1 and unknown keys are kept', async (t) => {
  const config = parseConfig(JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'x'], env: { A: '1' }, cwd: '/tmp', futureKey: { any: 1 } } }, extra: true }), 'mcp.json', {});
  t.same(config.mcpServers?.fs, { command: 'npx', args: ['-y', 'x'], env: { A: '1' }, cwd: '/tmp', futureKey: { any: 1 } });
});

t.test('${VAR} and ${VAR:-default} expand from the environment everywhere', async (t) => {
  const expanded = expandEnvironment(
    { url: 'https://${HOST_NAME}/mcp', headers: { Authorization: 'Bearer ${TOKEN:-none}' }, args: ['${HOST_NAME}', 'plain'] },
    { HOST_NAME: 'example.org' },
    'mcp.json',
  );
  t.same(expanded, { url: 'https://example.org/mcp', headers: { Authorization: 'Bearer none' }, args: ['example.org', 'plain'] });
  t.throws(() => expandEnvironment({ a: ['${NOPE}'] }, {}, 'mcp.json'), { code: 'HUB_ERR_CONFIG_INVALID', message: /NOPE is not set \(used at a\[0\]\)/ });
  t.throws(() => expandEnvironment('${NOPE}', {}, 'mcp.json'), { code: 'HUB_ERR_CONFIG_INVALID', message: /used at the top level/ });
});

t.test('a config that is not an object is refused with what was expected', async (t) => {
  t.throws(() => checkConfig([], 'config', {}), { name: 'StartupError', code: 'HUB_ERR_CONFIG_INVALID' });
  t.throws(() => checkConfig({ plugins: { x: 3 } }, 'config', {}), { code: 'HUB_ERR_CONFIG_INVALID', message: /key "plugins\.x": expected/ });
  t.throws(() => checkConfig({ mcpServers: { a: 'npx' } }, 'config', {}), { code: 'HUB_ERR_CONFIG_INVALID', message: /server "a": key "\(entry\)": expected a value of type object/ });
});

t.test('JSON errors at the end of the file still get a position', async (t) => {
  t.throws(() => parseConfig('{"a": ', 'cfg.json', {}), { code: 'HUB_ERR_CONFIG_INVALID', message: /^cfg\.json:1:\d+: the config file is not valid JSON/ });
});

t.test('JSON pointers read as paths', async (t) => {
  t.equal(pointerToPath('/mcpServers/a~1b/args/0'), 'mcpServers.a/b.args[0]');
  t.equal(pointerToPath(''), '');
});

t.test('settings follow the operator interface defaults', async (t) => {
  const defaults = settingsFromEnvironment({}, '/srv/hub');
  t.match(defaults, { host: '127.0.0.1', port: 3000, baseUrl: 'http://127.0.0.1:3000', dataPath: '/srv/hub/data', configFile: '/srv/hub/mcp.json' });
  const custom = settingsFromEnvironment({ HOST: '::1', PORT: '8080', DATA_PATH: '/var/hub', HUB_CONFIG: 'conf/x.json' }, '/srv/hub');
  t.equal(custom.baseUrl, 'http://[::1]:8080');
  t.equal(custom.dataPath, '/var/hub');
  t.equal(custom.configFile, '/srv/hub/conf/x.json');
  t.equal(settingsFromEnvironment({ BASE_URL: 'https://hub.example.org/' }).baseUrl, 'https://hub.example.org', 'a trailing slash is dropped');
});

t.test('a config file is read only when it is a regular file of at most 1 MiB', async (t) => {
  const folder = t.testdir();
  const large = join(folder, 'large.json');
  // Valid JSON: only its size is wrong.
  await writeFile(large, `{"mcpServers": {}${' '.repeat(MAX_CONFIG_BYTES)}}`);
  await t.rejects(loadConfigFile(large, {}), { code: 'HUB_ERR_CONFIG_UNREADABLE', message: /is \d+ bytes; a config file may have 1048576/ }, 'a file over 1 MiB is refused before it is read');
  const zero = join(folder, 'zero.json');
  await symlink('/dev/zero', zero);
  const before = process.memoryUsage().rss;
  await t.rejects(loadConfigFile(zero, {}), { code: 'HUB_ERR_CONFIG_UNREADABLE', message: /not a regular file/ }, 'a symlink to /dev/zero is refused');
  t.ok(process.memoryUsage().rss - before < 64 * 1024 * 1024, 'without reading from it');
  const fine = join(folder, 'fine.json');
  await writeFile(fine, '{"mcpServers": {}}');
  t.same((await loadConfigFile(fine, {})).config, { mcpServers: {} });
  t.same(await loadConfigFile(join(folder, 'missing.json'), {}), { config: {}, file: undefined }, 'no file: the defaults');
});
