import t from 'tap';
import { REVISIONS } from '../../helpers/clients.js';
import { bearerStatus, listServersWith } from './bearer.js';
import { approve, form, pkce } from './browserless.js';
import { startHubProcess } from './hub-process.js';

// hub-admin as its own process beside a running hub, on the same DATA_PATH: what it
// writes to the embedded store is seen by the hub on the hub's next request.

const REDIRECT = 'http://127.0.0.1:5555/callback';

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
    fetch(
      `${hub.url}/token`,
      form({ grant_type: 'authorization_code', code: redirect.searchParams.get('code') ?? '', code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId, client_secret: clientSecret }),
    );
  const wrong = await exchange(`${secret}x`);
  t.equal(wrong.status, 401, 'a wrong secret is refused');
  const response = await exchange(secret);
  t.equal(response.status, 200, 'the printed secret works at the token endpoint');
  const tokens = (await response.json()) as { access_token: string; refresh_token: string };

  const sessions = [];
  for (const revision of REVISIONS) {
    const { client, result } = await listServersWith(t, hub.url, revision, tokens.access_token);
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
