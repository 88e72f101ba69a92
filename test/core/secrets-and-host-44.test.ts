import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { withSecretFiles } from '../../core/config/secret-files.js';
import { tempDir } from './children/helpers.js';
import { startTestHub } from '../helpers/hub.js';

// Issue 44, S9: the secrets left out of `<NAME>_FILE`, and HOST=0.0.0.0 without BASE_URL.

t.test('ALT_ROUTING_API_KEY is read from ALT_ROUTING_API_KEY_FILE like the other secrets', async (t) => {
  const folder = await tempDir(t);
  const file = join(folder, 'routing-key');
  await writeFile(file, 'routing-key-1234\n', { mode: 0o600 });
  const env = await withSecretFiles({ ALT_ROUTING_API_KEY_FILE: file });
  t.equal(env.ALT_ROUTING_API_KEY, 'routing-key-1234');
  t.notOk('ALT_ROUTING_API_KEY_FILE' in env);
});

t.test('an upstream client secret named by clientSecretEnv may come from <NAME>_FILE', async (t) => {
  const folder = await tempDir(t);
  const file = join(folder, 'upstream-secret');
  await writeFile(file, 'upstream-secret-5678\n', { mode: 0o600 });
  const started = await startTestHub(t, {
    env: { UPSTREAM_SECRET_FILE: file },
    config: {
      mcpServers: { up: { type: 'http', url: 'https://upstream.example/mcp', oauth: { mode: 'static', clientId: 'hub', clientSecretEnv: 'UPSTREAM_SECRET' } } },
      plugins: { 'map-tools': false },
    },
  });
  t.ok(started.hub.children.get('up'), 'the hub starts with the secret read from the file');
});

t.test('HOST=0.0.0.0 without BASE_URL warns that the published URLs name an address no client reaches', async (t) => {
  const logs: string[] = [];
  await startTestHub(t, { logs, env: { HOST: '0.0.0.0', HUB_PASSWORD: 'correct horse' }, config: { plugins: { 'oauth-as': true, 'map-tools': false } } });
  const warning = logs.map((line) => JSON.parse(line) as { level: number; msg: string }).find((record) => record.msg.startsWith('HOST is 0.0.0.0 and BASE_URL is unset'));
  t.equal(warning?.level, 40, 'a warning');
  t.match(warning?.msg, /set BASE_URL to the URL clients use/);
});
