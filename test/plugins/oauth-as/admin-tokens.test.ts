import t from 'tap';
import { REVISIONS } from '../../helpers/clients.js';
import { bearerStatus, listServersWith } from './bearer.js';
import { startHubProcess } from './hub-process.js';

// hub-admin as its own process beside a running hub, on the same DATA_PATH: API tokens
// it mints are accepted by the hub, and its revocations seen on the hub's next request.

t.test('tokens mint and revoke', async (t) => {
  const hub = await startHubProcess(t);
  const minted = await hub.admin('tokens', 'mint', '--all', '--label', 'ci', '--expires-in', '2');
  t.equal(minted.code, 0, minted.stderr);
  const token = minted.stdout.trim();
  t.equal(token.split('.').length, 3, 'prints a signed token, alone on stdout');
  const id = /token id (\S+), expires (\S+)/.exec(minted.stderr);
  t.ok(id, 'says its id and expiry on stderr');
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { iat: number; exp: number };
  t.equal(claims.exp - claims.iat, 2 * 86_400, 'the expiry is the one asked for, counted from the issue time');
  t.equal(Date.parse(id?.[2] ?? ''), claims.exp * 1000, 'and the one stderr states');

  const sessions = [];
  for (const revision of REVISIONS) {
    const { client, result } = await listServersWith(t, hub.url, revision, token);
    t.notOk(result.isError, `${revision}: the API token is accepted on /hub`);
    sessions.push(client);
  }
  const refused = await hub.admin('tokens', 'mint', '--all', '--expires-in=-1');
  t.equal(refused.code, 2, 'a negative expiry is refused');
  t.match(refused.stderr, /--expires-in takes a positive number of days/);

  const revoked = await hub.admin('tokens', 'revoke', id?.[1] ?? '');
  t.equal(revoked.code, 0, revoked.stderr);
  for (const client of sessions) {
    await t.rejects(client.callTool({ name: 'list_servers', arguments: {} }), `${client.getNegotiatedProtocolVersion()}: refused once revoked`);
  }
  t.equal(await bearerStatus(hub.url, token), 401);
});
