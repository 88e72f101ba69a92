import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { HUB_ERROR_CODES } from '../../core/errors.js';
import { checkConfig } from '../../core/config/load.js';
import { variableProblem } from '../../core/config/expand.js';
import { withSecretFiles } from '../../core/config/secret-files.js';
import { cliPath, runNode } from '../helpers/cli.js';
import { startTestHub } from '../helpers/hub.js';
import { tempDir } from './children/helpers.js';

const refused = (variable: string, problem: RegExp) => ({ code: HUB_ERROR_CODES.SECRET_FILE, message: new RegExp(`^${variable} \\(.+\\) ${problem.source}`) });

t.test('<NAME>_FILE is read into <NAME>, without its trailing line end, and removed', async (t) => {
  const folder = await tempDir(t);
  await writeFile(join(folder, 'password'), 'from a file\n');
  await writeFile(join(folder, 'mongodb'), 'mongodb://db.example:27017/hub\r\n');
  const env = { HUB_PASSWORD_FILE: join(folder, 'password'), MONGODB_URL_FILE: join(folder, 'mongodb'), PORT: '4000' };
  const resolved = await withSecretFiles(env);
  t.same(resolved, { HUB_PASSWORD: 'from a file', MONGODB_URL: 'mongodb://db.example:27017/hub', PORT: '4000' });
  t.same(await withSecretFiles(resolved), resolved, 'resolving again changes nothing');
  t.equal(env.HUB_PASSWORD_FILE, join(folder, 'password'), 'the given environment is left as it was');
  const none = { HUB_PASSWORD: 'direct', MAP_OSM_FILE: '/maps/monaco.osm.pbf' };
  t.equal(await withSecretFiles(none), none, 'without a secret file the environment itself, and MAP_OSM_FILE is no secret');
});

t.test('a secret file that is unusable, or set beside its variable, is refused by name, never quoted', async (t) => {
  const folder = await tempDir(t);
  const file = join(folder, 'password');
  await writeFile(file, 'the-secret-itself');
  await t.rejects(withSecretFiles({ HUB_PASSWORD: 'direct', HUB_PASSWORD_FILE: file }), {
    code: HUB_ERROR_CODES.SECRET_FILE,
    message: 'HUB_PASSWORD and HUB_PASSWORD_FILE are both set; set one of them',
  });
  await t.rejects(withSecretFiles({ METRICS_TOKEN_FILE: join(folder, 'missing') }), refused('METRICS_TOKEN_FILE', /does not exist/));
  await writeFile(join(folder, 'empty'), '\n');
  await t.rejects(withSecretFiles({ HUB_PASSWORD_FILE: join(folder, 'empty') }), refused('HUB_PASSWORD_FILE', /is empty/));
  await mkdir(join(folder, 'folder'));
  await t.rejects(withSecretFiles({ MONGODB_URL_FILE: join(folder, 'folder') }), refused('MONGODB_URL_FILE', /is not a regular file/));
  await writeFile(join(folder, 'large'), 'x'.repeat(64 * 1024 + 1));
  await t.rejects(withSecretFiles({ HUB_PASSWORD_FILE: join(folder, 'large') }), refused('HUB_PASSWORD_FILE', /is larger than 64 KiB/));
  // A FIFO with no writer: reading it would wait for ever.
  const fifo = join(folder, 'fifo');
  if (spawnSync('mkfifo', [fifo]).status === 0) {
    await t.rejects(withSecretFiles({ HUB_PASSWORD_FILE: fifo }), refused('HUB_PASSWORD_FILE', /is not a regular file/));
  }
  const error = await withSecretFiles({ HUB_PASSWORD: 'direct', HUB_PASSWORD_FILE: file }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  t.ok(error instanceof Error, 'both set: refused');
  t.notMatch(String(error), /the-secret-itself|direct/, 'no message quotes a secret');
});

t.test('the hub reads METRICS_TOKEN_FILE: a plugin sees the secret as if it were set', async (t) => {
  const folder = await tempDir(t);
  await writeFile(join(folder, 'metrics-token'), 'scrape-secret-from-a-file\n');
  const { url } = await startTestHub(t, {
    config: { plugins: { 'oauth-as': true, 'map-tools': false } },
    env: { HOST: '0.0.0.0', HUB_PASSWORD: 'pw', METRICS_TOKEN_FILE: join(folder, 'metrics-token') },
  });
  // Through a proxy on this machine (a forwarding header), a loopback peer needs the token like anyone else.
  const proxied = { 'x-forwarded-for': '203.0.113.9' };
  t.equal((await fetch(`${url}/metrics`, { headers: proxied })).status, 401, 'no token: refused');
  t.equal((await fetch(`${url}/metrics`, { headers: { ...proxied, authorization: 'Bearer scrape-secret-from-a-file' } })).status, 200, "the file's token is accepted");
});

t.test('the bins stop with one line naming the variable; hub-admin resolves MONGODB_URL_FILE before it looks for a store', async (t) => {
  const folder = await tempDir(t);
  await writeFile(join(folder, 'password'), 'pw');
  const env = { DATA_PATH: join(folder, 'data'), HUB_CONFIG: join(folder, 'none.json'), PORT: '0' };
  const hub = await runNode(cliPath('hub'), [], { ...env, HUB_PASSWORD: 'pw', HUB_PASSWORD_FILE: join(folder, 'password') });
  t.equal(hub.code, 1);
  t.equal(hub.stderr, 'hub: HUB_PASSWORD and HUB_PASSWORD_FILE are both set; set one of them\n');
  const admin = await runNode(cliPath('hub-admin'), ['tokens', 'list'], { ...env, MONGODB_URL: undefined, MONGODB_URL_FILE: join(folder, 'mongodb-url') });
  t.equal(admin.code, 1);
  t.match(admin.stderr, /^hub-admin: MONGODB_URL_FILE \(.+mongodb-url\) does not exist/, 'the secret file, not a missing embedded store');
});

t.test('a ${VAR} of the config whose VAR is unset is read from VAR_FILE (issue 40: headers of openapi servers)', async (t) => {
  const folder = await tempDir(t);
  await writeFile(join(folder, 'notes_key'), 'key-from-a-file\n');
  const config = { mcpServers: { notes: { type: 'openapi', spec: './notes.yaml', headers: { 'X-Api-Key': '${NOTES_KEY}' } } } };
  const expanded = checkConfig(config, 'mcp.json', { NOTES_KEY_FILE: join(folder, 'notes_key') });
  t.same(expanded.mcpServers?.notes?.headers, { 'X-Api-Key': 'key-from-a-file' }, 'the file, without its trailing line end');
  t.same(checkConfig(config, 'mcp.json', { NOTES_KEY: 'set', NOTES_KEY_FILE: join(folder, 'notes_key') }).mcpServers?.notes?.headers, { 'X-Api-Key': 'set' }, 'a set variable wins');
  t.throws(() => checkConfig(config, 'mcp.json', { NOTES_KEY_FILE: join(folder, 'missing') }), refused('NOTES_KEY_FILE', /does not exist/));
  await writeFile(join(folder, 'empty'), '\n');
  t.throws(() => checkConfig(config, 'mcp.json', { NOTES_KEY_FILE: join(folder, 'empty') }), refused('NOTES_KEY_FILE', /is empty/));
  // Neither: the entry is left as written and only that server is kept down, naming the variable (issue 43, item 13).
  t.same(checkConfig(config, 'mcp.json', {}).mcpServers?.notes?.headers, { 'X-Api-Key': '${NOTES_KEY}' }, 'neither: the entry is left as written');
  t.match(variableProblem(config.mcpServers.notes, {}, 'mcpServers.notes'), /environment variable NOTES_KEY is not set/, 'neither: the variable is unset');
  t.equal(variableProblem(config.mcpServers.notes, { NOTES_KEY_FILE: join(folder, 'notes_key') }, 'mcpServers.notes'), undefined, 'a variable with a file is not unset');
});
