import { fileURLToPath } from 'node:url';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { cliPath, runNode } from '../helpers/cli.js';

// Issue 43, item 14: a sample mcp.json ships in examples/, and the hub reads it as written.

const sample = fileURLToPath(new URL('../../../examples/mcp.json', import.meta.url));

t.test('examples/mcp.json passes hub check, and says which variable it needs', async (t) => {
  const data = await mkdtemp(join(tmpdir(), 'sample-config-'));
  const withToken = await runNode(cliPath('hub'), ['check'], { HUB_CONFIG: sample, DATA_PATH: data, HUB_PASSWORD: 'a-password-for-the-test', REMOTE_TOKEN: 'a-token' });
  t.equal(withToken.code, 0, withToken.stdout + withToken.stderr);
  t.match(withToken.stdout, /ok\s+everything\s+stdio:/);
  t.match(withToken.stdout, /ok\s+remote\s+http:/);
  const without = await runNode(cliPath('hub'), ['check'], { HUB_CONFIG: sample, DATA_PATH: data, HUB_PASSWORD: 'a-password-for-the-test', REMOTE_TOKEN: undefined });
  t.match(without.stdout, /problem\s+remote\s.*environment variable REMOTE_TOKEN is not set/, 'without REMOTE_TOKEN only that server is a problem');
  t.match(without.stdout, /ok\s+everything\s/);
});
