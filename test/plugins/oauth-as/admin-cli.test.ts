import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { approve, form, pkce } from './browserless.js';
import { startHubProcess } from './hub-process.js';

// hub-admin as its own process beside a running hub, on the same DATA_PATH: what it
// writes to the embedded store is seen by the hub on the hub's next request.

const REDIRECT = 'http://127.0.0.1:5555/callback';

async function listServers(t: Parameters<typeof connectClient>[0], url: string, revision: (typeof REVISIONS)[number], token: string) {
  const client = await connectClient(t, `${url}/hub`, revision, { authorization: `Bearer ${token}` });
  return { client, result: await client.callTool({ name: 'list_servers', arguments: {} }) };
}

async function bearerStatus(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/hub`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.body?.cancel();
  return response.status;
}

t.test('clients add, list and revoke', async (t) => {
  const hub = await startHubProcess(t);
  const added = await hub.admin('clients', 'add', '--redirect-uri', REDIRECT, '--name', 'CLI client');
  t.equal(added.code, 0, added.stderr);
  const clientId = /^client_id: (\S+)$/m.exec(added.stdout)?.[1] ?? '';
  const secret = /^client_secret: (\S+)$/m.exec(added.stdout)?.[1] ?? '';
  t.match(clientId, /^hco_/, 'prints the client_id');
  t.match(secret, /^hcs_/, 'prints the secret');

  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's' });
  const redirect = await approve(`${hub.url}/authorize?${query}`, 'correct horse');
  const exchange = (clientSecret: string) =>
    fetch(`${hub.url}/token`, form({ grant_type: 'authorization_code', code: redirect.searchParams.get('code') ?? '', code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, client_secret: clientSecret }));
  const wrong = await exchange(`${secret}x`);
  t.equal(wrong.status, 401, 'a wrong secret is refused');
  const response = await exchange(secret);
  t.equal(response.status, 200, 'the printed secret works at the token endpoint');
  const tokens = (await response.json()) as { access_token: string; refresh_token: string };

  const sessions = [];
  for (const revision of REVISIONS) {
    const { client, result } = await listServers(t, hub.url, revision, tokens.access_token);
    t.notOk(result.isError, `${revision}: list_servers with the client's token`);
    sessions.push(client);
  }

  const listed = await hub.admin('clients', 'list');
  t.equal(listed.code, 0, listed.stderr);
  t.match(listed.stdout, new RegExp(`^${clientId}\\toperator\\tCLI client\\t${REDIRECT}$`, 'm'));

  const revoked = await hub.admin('clients', 'revoke', clientId);
  t.equal(revoked.code, 0, revoked.stderr);
  for (const client of sessions) {
    await t.rejects(client.callTool({ name: 'list_servers', arguments: {} }), `${client.getNegotiatedProtocolVersion()}: the next request of an open session is refused`);
  }
  t.equal(await bearerStatus(hub.url, tokens.access_token), 401);
  const refreshed = await fetch(`${hub.url}/token`, form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId, client_secret: secret }));
  t.equal(refreshed.status, 400, 'the refresh token is withdrawn too');
  t.match(await refreshed.json(), { error: 'invalid_grant' });
});

t.test('tokens mint and revoke', async (t) => {
  const hub = await startHubProcess(t);
  const minted = await hub.admin('tokens', 'mint', '--label', 'ci', '--expires-in', '2');
  t.equal(minted.code, 0, minted.stderr);
  const token = minted.stdout.trim();
  t.equal(token.split('.').length, 3, 'prints a signed token, alone on stdout');
  const id = /token id (\S+), expires (\S+)/.exec(minted.stderr);
  t.ok(id, 'says its id and expiry on stderr');
  const days = (Date.parse(id?.[2] ?? '') - Date.now()) / 86_400_000;
  t.ok(days > 1.9 && days <= 2, 'the expiry is the one asked for');

  const sessions = [];
  for (const revision of REVISIONS) {
    const { client, result } = await listServers(t, hub.url, revision, token);
    t.notOk(result.isError, `${revision}: the API token is accepted on /hub`);
    sessions.push(client);
  }
  const refused = await hub.admin('tokens', 'mint', '--expires-in=-1');
  t.equal(refused.code, 2, 'a negative expiry is refused');
  t.match(refused.stderr, /--expires-in takes a positive number of days/);

  const revoked = await hub.admin('tokens', 'revoke', id?.[1] ?? '');
  t.equal(revoked.code, 0, revoked.stderr);
  for (const client of sessions) {
    await t.rejects(client.callTool({ name: 'list_servers', arguments: {} }), `${client.getNegotiatedProtocolVersion()}: refused once revoked`);
  }
  t.equal(await bearerStatus(hub.url, token), 401);
});
