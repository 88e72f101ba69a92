import { fileURLToPath } from 'node:url';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { checkConfig, formatReport } from '../../core/cli/check.js';

// Issue 43, item 14: a sample mcp.json ships in examples/, and the hub reads it as written.
// What `hub check` reports on it is made in this process as the CLI makes it (checkConfig,
// then formatReport; the exit code is `ok ? 0 : 1`): the sample is the subject, the CLI's
// process is test/core/operator/check.test.ts's.

const sample = fileURLToPath(new URL('../../../examples/mcp.json', import.meta.url));

t.test('examples/mcp.json passes hub check, and says which variable it needs', async (t) => {
  const data = await mkdtemp(join(tmpdir(), 'sample-config-'));
  const env = { ...process.env, HUB_CONFIG: sample, DATA_PATH: data, HUB_PASSWORD: 'a-password-for-the-test' };
  const withToken = await checkConfig({ ...env, REMOTE_TOKEN: 'a-token' }, false);
  const text = formatReport(withToken);
  t.equal(withToken.ok, true, text);
  t.match(text, /ok\s+everything\s+stdio:/);
  t.match(text, /ok\s+remote\s+http:/);
  const without = formatReport(await checkConfig({ ...env, REMOTE_TOKEN: undefined }, false));
  t.match(without, /problem\s+remote\s.*environment variable REMOTE_TOKEN is not set/, 'without REMOTE_TOKEN only that server is a problem');
  t.match(without, /ok\s+everything\s/);
});
