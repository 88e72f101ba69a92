import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runAdmin } from '../../../core/cli/admin-main.js';
import { HUB_ERROR_CODES } from '../../../core/errors.js';
import { waitFor } from '../../core/children/helpers.js';
import { runHubAdmin } from '../../helpers/admin.js';
import { startStandaloneHub } from '../../helpers/hub.js';

// Issue 18, item 6: hub-admin finds the hub's store as the hub does or refuses, mints
// tokens for the base URL the hub serves, lists them, and the hub says why a token is
// not valid. The hub and hub-admin run in this process, the mints building hub-admin's hub
// beside the running one as two processes would: how runCli prints a refusal is the
// subject of secret-files.test, a hub process seeing hub-admin's writes that of
// admin-tokens.test.

/** The refusal a hub gives `token` on /hub: status and error description. */
async function refusal(url: string, token: string) {
  const response = await fetch(`${url}/hub`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  if (response.ok) {
    await response.body?.cancel();
    return { status: response.status, description: '', message: '' };
  }
  const answer = (await response.json()) as { error?: { message?: string; data?: { error_description?: string } } };
  return { status: response.status, description: answer.error?.data?.error_description ?? '', message: answer.error?.message ?? '' };
}

t.test('hub-admin refuses to create a store where the hub has none, saying where it looked', async (t) => {
  const elsewhere = await mkdtemp(join(tmpdir(), 'admin-elsewhere-'));
  let stdout = '';
  await t.rejects(runAdmin(['tokens', 'mint', '--all'], { DATA_PATH: join(elsewhere, 'data') }, { stdout: (text) => void (stdout += text), stderr: () => undefined }), {
    name: 'StartupError',
    code: HUB_ERROR_CODES.STORE_UNAVAILABLE,
    message: `no hub store at ${join(elsewhere, 'data', 'store')} (DATA_PATH is ${join(elsewhere, 'data')}); run hub-admin with the hub's DATA_PATH`,
  });
  t.notOk(existsSync(join(elsewhere, 'data')), 'nothing was created');
  t.equal(stdout, '', 'no token');
});

t.test('tokens are minted for the base URL the hub serves, listed, and refusals say why', async (t) => {
  // The hub's BASE_URL comes from its PORT alone, as for an operator who set PORT only.
  const hub = await startStandaloneHub(t, { BASE_URL: undefined });
  const same = { DATA_PATH: hub.dataPath, HUB_CONFIG: hub.configFile };
  // Where the hub serves is noted before its start resolves: the mint needs no wait.
  const minted = await runHubAdmin(same, 'tokens', 'mint', '--all', '--label', 'ci');
  t.equal(minted.code, 0, minted.stderr);
  t.match(minted.stderr, `for the hub at ${hub.url} (where the hub last served with this store)`, 'says which base URL the token is for');
  const token = minted.stdout.trim();
  t.equal(await refusal(hub.url, token).then((answer) => answer.status), 200, 'without PORT, the token is for where the hub serves, and accepted');

  const wrongPort = await runHubAdmin({ ...same, PORT: '3000' }, 'tokens', 'mint', '--all');
  t.match(wrongPort.stderr, 'for the hub at http://127.0.0.1:3000 (from BASE_URL, HOST and PORT)');
  t.match(wrongPort.stderr, `note: the hub last served at ${hub.url} with this store`);
  const refused = await refusal(hub.url, wrongPort.stdout.trim());
  t.equal(refused.status, 401);
  t.equal(refused.description, `the token is not valid: the API token is for http://127.0.0.1:3000, and this hub serves ${hub.url} (mint tokens with hub-admin's BASE_URL set as the hub's)`);

  const id = /token id (\S+),/.exec(minted.stderr)?.[1] ?? '';
  const listed = await runHubAdmin(same, 'tokens', 'list');
  t.equal(listed.code, 0, listed.stderr);
  const [header, ...rows] = listed.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
  t.same(header, ['ID', 'STATUS', 'ISSUED', 'EXPIRES', 'LAST USED', 'BASE URL', 'RESOURCES', 'SERVERS', 'LABEL'], 'under a header');
  t.equal(rows.length, 2, 'both minted tokens are listed');
  t.match(rows[0], [id, 'active', /^\d{4}-/, 'never', /^(never|\d{4}-)/, hub.url, 'all', 'all', 'ci']);
  t.match(rows[1], [/./, 'active', /^\d{4}-/, 'never', /^(never|\d{4}-)/, 'http://127.0.0.1:3000', 'all', 'all', '']);
  t.notMatch(listed.stdout, token, 'the list never shows a token itself');

  await runHubAdmin(same, 'tokens', 'revoke', id);
  t.match((await runHubAdmin(same, 'tokens', 'list')).stdout, new RegExp(`^${id}\\trevoked\\t`, 'm'));
  // Another opening's write reaches the hub's answer within the store's staleness bound.
  let description = '';
  await waitFor('the hub to refuse the revoked token', async () => (description = (await refusal(hub.url, token)).description) !== '');
  t.equal(description, `the token is not valid: API token ${id} was revoked`);

  // Another hub's store: a key of its own, and a token for this hub's URL, so that only the key is wrong.
  const other = join(await mkdtemp(join(tmpdir(), 'admin-other-')), 'data');
  await mkdir(join(other, 'store'), { recursive: true });
  const foreign = (await runHubAdmin({ DATA_PATH: other, HUB_CONFIG: hub.configFile, BASE_URL: hub.url }, 'tokens', 'mint', '--all')).stdout.trim();
  t.equal((await refusal(hub.url, foreign)).description, "the token is not valid: the API token was not signed by this hub's key (minted with another DATA_PATH or MONGODB_URL?)");
});
