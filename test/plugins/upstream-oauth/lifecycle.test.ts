import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { waitFor } from '../../core/children/helpers.js';
import { SCOPE, startUpstreamWorld } from './upstream-world.js';
import { freePort } from '../../helpers/net.js';
import { loginThroughPage, newDataPath, Operator, startUpstreamHub } from './upstream-hub.js';

t.test('parallel 401s refresh once; a restart keeps the tokens; logout revokes and deletes the registration', async (t) => {
  const port = await freePort();
  const dataPath = await newDataPath();
  const world = await startUpstreamWorld(t, () => [], `http://127.0.0.1:${port}/upstreams/callback`);
  const servers = { dyn: { url: world.mcpUrl, oauth: { mode: 'dcr', scope: SCOPE } } };
  let running = await startUpstreamHub(t, { port, dataPath, servers });
  const operator = new Operator(running.url);
  const authorize = await loginThroughPage(operator, running.url, 'dyn');
  const clientId = authorize.searchParams.get('client_id') ?? '';
  const child = () => running.hub.children.get('dyn');
  await waitFor('the server to come up', () => child()?.status === 'up');

  const expiring = world.seenTokens.at(-1) ?? '';
  t.ok(expiring, 'the upstream saw a token');
  world.expire(expiring, 20);
  const client = await connectClient(t, `${running.url}/dyn/mcp`, '2026-07-28');
  const results = await Promise.all(Array.from({ length: 20 }, () => client.callTool({ name: 'secret', arguments: {} })));
  // A call meets the expired token once on the plain road and may meet it again on the SDK's, which refreshes.
  t.ok(world.refusedExpired >= 20, 'all 20 calls hit the expired access token');
  t.ok(
    results.every((result) => JSON.stringify(result.content) === JSON.stringify([{ type: 'text', text: 'the secret' }])),
    'all 20 calls succeed after the refresh',
  );
  t.equal(world.grants.refresh_token, 1, 'exactly one refresh (the rotating refresh token was spent once)');

  await running.app.close();
  running = await startUpstreamHub(t, { port, dataPath, servers });
  await waitFor('the server to come up after a restart', () => child()?.status === 'up');
  const again = await connectClient(t, `${running.url}/dyn/mcp`, '2025-11-25');
  t.same((await again.callTool({ name: 'secret', arguments: {} })).content, [{ type: 'text', text: 'the secret' }], "a restart keeps the deployment's tokens");
  t.equal(world.grants.authorization_code, 1, 'no new login was needed');
  t.equal(world.grants.refresh_token, 1, 'nor a refresh');

  const stored = await running.hub.store.collection<{ _id: string; tokens?: string }>('upstream_oauth').findOne({ _id: 'dyn' });
  const refreshToken = (JSON.parse(stored?.tokens ?? '{}') as { refresh_token?: string }).refresh_token ?? '';
  t.ok(await world.provider.RefreshToken.find(refreshToken), 'the stored refresh token is live at the upstream');
  const restartedOperator = new Operator(running.url);
  await restartedOperator.logIn();
  const loggedOut = await restartedOperator.press('dyn', 'logout');
  t.equal(loggedOut.status, 200);
  t.match(await loggedOut.text(), /Logged out of dyn/);
  t.equal(await world.provider.RefreshToken.find(refreshToken), undefined, 'the refresh token was revoked (RFC 7009)');
  t.equal(await world.provider.Client.find(clientId), undefined, 'the dynamic registration was deleted (RFC 7592)');
  t.equal(child()?.status, 'unauthorized', 'the server is back to unauthorized');
  const health = (await (await fetch(`${running.url}/health`)).json()) as { servers: Record<string, string> };
  t.equal(health.servers.dyn, 'unauthorized');
  t.notMatch(await restartedOperator.page(), /Log out of dyn/, 'no tokens are held any more');
});

t.test('two hub processes sharing one store spend the rotating refresh token once', async (t) => {
  const port = await freePort();
  const dataPath = await newDataPath();
  const world = await startUpstreamWorld(t, () => [], `http://127.0.0.1:${port}/upstreams/callback`);
  const servers = { dyn: { url: world.mcpUrl, oauth: { mode: 'dcr', scope: SCOPE } } };
  const first = await startUpstreamHub(t, { port, dataPath, servers });
  await loginThroughPage(new Operator(first.url), first.url, 'dyn');
  const second = await startUpstreamHub(t, { dataPath, servers });
  await waitFor('both replicas to be up', () => first.hub.children.get('dyn')?.status === 'up' && second.hub.children.get('dyn')?.status === 'up');

  world.expire(world.seenTokens.at(-1) ?? '', 20);
  const clients = await Promise.all([first, second].map((replica) => connectClient(t, `${replica.url}/dyn/mcp`, '2026-07-28')));
  const results = await Promise.all(clients.flatMap((client) => Array.from({ length: 10 }, () => client.callTool({ name: 'secret', arguments: {} }))));
  t.ok(world.refusedExpired >= 20, 'all 20 calls, 10 per replica, hit the expired access token');
  t.equal(results.filter((result) => !result.isError).length, 20, 'all succeed');
  t.equal(world.grants.refresh_token, 1, 'one refresh across both replicas');
});
