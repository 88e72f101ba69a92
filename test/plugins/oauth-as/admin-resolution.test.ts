import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import t from 'tap';
import { cliPath, runNode } from '../../helpers/cli.js';
import { startHubProcess } from './hub-process.js';

// Issue 18, item 6: hub-admin finds the hub's store as the hub does or refuses, mints
// tokens for the base URL the hub serves, lists them, and the hub says why a token is
// not valid.

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

/** hub-admin with only the given variables of the operator interface (none of the test's own). */
function admin(env: Record<string, string>, ...args: string[]) {
  const { PORT, HOST, BASE_URL, DATA_PATH, HUB_CONFIG, MONGODB_URL, ...rest } = process.env;
  return runNode(cliPath('hub-admin'), args, { ...rest, ...env });
}

t.test('hub-admin refuses to create a store where the hub has none, saying where it looked', async (t) => {
  const elsewhere = await mkdtemp(join(tmpdir(), 'admin-elsewhere-'));
  const result = await admin({ DATA_PATH: join(elsewhere, 'data') }, 'tokens', 'mint', '--all');
  t.equal(result.code, 1);
  t.match(result.stderr, `hub-admin: no hub store at ${join(elsewhere, 'data', 'store')} (DATA_PATH is ${join(elsewhere, 'data')}); run hub-admin with the hub's DATA_PATH`);
  t.notOk(existsSync(join(elsewhere, 'data')), 'nothing was created');
  t.equal(result.stdout, '', 'no token');
});

t.test('tokens are minted for the base URL the hub serves, listed, and refusals say why', async (t) => {
  // The hub's BASE_URL comes from its PORT alone, as for an operator who set PORT only.
  const hub = await startHubProcess(t, { env: { BASE_URL: undefined } });
  const config = join(dirname(hub.dataPath), 'mcp.json');
  const same = { DATA_PATH: hub.dataPath, HUB_CONFIG: config };

  const minted = await admin(same, 'tokens', 'mint', '--all', '--label', 'ci');
  t.equal(minted.code, 0, minted.stderr);
  t.match(minted.stderr, `for the hub at ${hub.url} (where the hub last served with this store)`, 'says which base URL the token is for');
  const token = minted.stdout.trim();
  t.equal(await refusal(hub.url, token).then((answer) => answer.status), 200, 'without PORT, the token is for where the hub serves, and accepted');

  const wrongPort = await admin({ ...same, PORT: '3000' }, 'tokens', 'mint', '--all');
  t.match(wrongPort.stderr, 'for the hub at http://127.0.0.1:3000 (from BASE_URL, HOST and PORT)');
  t.match(wrongPort.stderr, `note: the hub last served at ${hub.url} with this store`);
  const refused = await refusal(hub.url, wrongPort.stdout.trim());
  t.equal(refused.status, 401);
  t.equal(refused.description, `the token is not valid: the API token is for http://127.0.0.1:3000, and this hub serves ${hub.url} (mint tokens with hub-admin's BASE_URL set as the hub's)`);

  const id = /token id (\S+),/.exec(minted.stderr)?.[1] ?? '';
  const listed = await admin(same, 'tokens', 'list');
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

  await admin(same, 'tokens', 'revoke', id);
  t.match((await admin(same, 'tokens', 'list')).stdout, new RegExp(`^${id}\\trevoked\\t`, 'm'));
  t.equal((await refusal(hub.url, token)).description, `the token is not valid: API token ${id} was revoked`);

  const other = await startHubProcess(t);
  const foreign = (await other.admin('tokens', 'mint', '--all')).stdout.trim();
  t.equal((await refusal(hub.url, foreign)).description, "the token is not valid: the API token was not signed by this hub's key (minted with another DATA_PATH or MONGODB_URL?)");
});
