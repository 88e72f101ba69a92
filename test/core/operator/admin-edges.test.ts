import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runHubAdmin } from '../../helpers/admin.js';
import { cliPath } from '../../helpers/cli.js';
import { fixtureEntry, starts } from '../children/helpers.js';

// Issue 32, item 4: hub-admin without sharp edges. What the commands do runs in this
// process, as hub-admin runs it; its process is the subject of the last test only.

/** A folder with a config and an (empty) hub store, as a hub leaves them. */
async function hubFolder(config: unknown): Promise<Record<string, string>> {
  const folder = await mkdtemp(join(tmpdir(), 'admin-edges-'));
  await mkdir(join(folder, 'data', 'store'), { recursive: true, mode: 0o700 });
  await writeFile(join(folder, 'mcp.json'), JSON.stringify(config));
  return { DATA_PATH: join(folder, 'data'), HUB_CONFIG: join(folder, 'mcp.json'), BASE_URL: 'http://127.0.0.1:3999' };
}

// Each subtest has a folder and a store of its own: they run side by side.
t.jobs = 2;

t.test('token and client commands run beside a broken server entry, and start no server', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'admin-edges-starts-'));
  const startsFile = join(folder, 'starts');
  const env = await hubFolder({
    mcpServers: { broken: { type: 'no-such-type' }, kept: fixtureEntry('crashy', startsFile, { keepAlive: true }) },
    plugins: { 'map-tools': false },
  });
  const minted = await runHubAdmin(env, 'tokens', 'mint', '--all');
  t.equal(minted.code, 0, minted.stderr);
  t.equal(minted.stdout.trim().split('.').length, 3, 'a token');
  t.match(minted.stderr, /hub-admin: note: left out a server: .*server "broken": key "type"/, 'the broken entry is noted, not fatal');
  t.equal((await runHubAdmin(env, 'clients', 'list')).code, 0);
  t.same(starts(startsFile), [], 'the always-running server was not started for a token');
});

t.test('lists have a header, and say so when empty', async (t) => {
  const env = await hubFolder({ plugins: { 'map-tools': false } });
  const tokens = await runHubAdmin(env, 'tokens', 'list');
  t.equal(tokens.code, 0, tokens.stderr);
  t.equal(tokens.stdout, 'ID\tSTATUS\tISSUED\tEXPIRES\tLAST USED\tBASE URL\tRESOURCES\tSERVERS\tLABEL\n');
  t.match(tokens.stderr, /^no API tokens/m);
  const clients = await runHubAdmin(env, 'clients', 'list');
  t.equal(clients.stdout, 'CLIENT ID\tSOURCE\tNAME\tREDIRECT URIS\n');
  t.match(clients.stderr, /^no OAuth clients yet/m);
  await runHubAdmin(env, 'tokens', 'mint', '--all', '--label', 'ci');
  t.match((await runHubAdmin(env, 'tokens', 'list')).stdout, /^ID\tSTATUS.*\n[0-9a-f-]{36}\tactive\t.*\tci\n$/);
});

t.test('revoking an unknown token or client fails, saying so', async (t) => {
  const env = await hubFolder({ plugins: { 'map-tools': false } });
  const token = await runHubAdmin(env, 'tokens', 'revoke', '00000000-0000-4000-8000-000000000000');
  t.equal(token.code, 1);
  t.match(token.stderr, 'hub-admin: no API token 00000000-0000-4000-8000-000000000000 in this store');
  t.equal(token.stdout, '', 'no success line');
  const garbled = await runHubAdmin(env, 'tokens', 'revoke', 'not.a.token');
  t.equal(garbled.code, 1);
  const client = await runHubAdmin(env, 'clients', 'revoke', 'hco_nobody');
  t.equal(client.code, 1);
  t.match(client.stderr, 'hub-admin: no OAuth client hco_nobody');
  const metadataClient = await runHubAdmin(env, 'clients', 'revoke', 'https://app.example/client.json');
  t.equal(metadataClient.code, 0, 'a metadata-document client is revoked by its URL, stored or not');
});

t.test('a reader that stops early ends hub-admin quietly', async (t) => {
  const env = await hubFolder({ plugins: { 'map-tools': false } });
  t.equal((await runHubAdmin(env, 'tokens', 'mint', '--all')).code, 0, 'a token to list');
  // The reading end is gone before hub-admin writes a line, as with `| head -1` on a long list.
  const child = spawn(process.execPath, [cliPath('hub-admin'), 'tokens', 'list'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  t.equal(code, 0, stderr);
  t.notMatch(stderr, /EPIPE|at .*\.js/, 'no stack trace');
});
