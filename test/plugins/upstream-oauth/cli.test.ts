import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { runHubAdmin } from '../../helpers/admin.js';
import { connectClient } from '../../helpers/clients.js';
import { waitFor } from '../../core/children/helpers.js';
import { completeAuthorization, SCOPE, startUpstreamWorld } from './upstream-world.js';
import { freePort } from '../../helpers/net.js';
import { newDataPath, PASSWORD, startUpstreamHub } from './upstream-hub.js';

t.test("hub-admin upstreams status, login and logout against the running hub's store", async (t) => {
  const port = await freePort();
  const dataPath = await newDataPath();
  const callback = `http://127.0.0.1:${port}/upstreams/callback`;
  const world = await startUpstreamWorld(t, () => [], callback);
  const servers = { dyn: { url: world.mcpUrl, oauth: { mode: 'dcr', scope: SCOPE } } };
  const running = await startUpstreamHub(t, { port, dataPath, servers });
  const configFile = join(dataPath, 'mcp.json');
  await writeFile(configFile, JSON.stringify({ mcpServers: servers, plugins: { 'oauth-as': false, 'map-tools': false, 'upstream-oauth': { allowLoopbackAuthorizationServers: true } } }));
  const env = { HUB_CONFIG: configFile, DATA_PATH: dataPath, BASE_URL: running.url, PORT: String(port), HOST: '127.0.0.1', HUB_PASSWORD: PASSWORD };
  // hub-admin's commands in this process, each opening the store beside the running hub's.
  const admin = (...args: string[]) => runHubAdmin(env, 'upstreams', ...args);

  const before = await admin('status', 'dyn');
  t.equal(before.code, 0, before.stderr);
  t.match(before.stdout, /^dyn\tunauthorized\tmode=dcr\tgrant=authorization_code/);
  t.equal((await admin('status', 'nosuch')).code, 2, 'an unknown server is refused');
  t.equal((await admin('frobnicate')).code, 2, 'an unknown action prints the usage');

  const login = await admin('login', 'dyn');
  t.equal(login.code, 0, login.stderr);
  const authorizationUrl = login.stdout.trim();
  t.equal(new URL(authorizationUrl).origin, world.issuer, 'login prints the authorization URL to open');
  const back = await completeAuthorization(authorizationUrl, callback);
  t.equal((await fetch(back)).status, 200, 'the running hub finishes the login at its callback');
  const child = running.hub.children.get('dyn');
  await waitFor('the server to come up', () => child?.status === 'up');
  t.match((await admin('status')).stdout, /^dyn\tlogged-in/);

  const logout = await admin('logout', 'dyn');
  t.equal(logout.code, 0, logout.stderr);
  t.match(logout.stdout, /logged out of dyn/);
  t.equal(await world.provider.Client.find(new URL(authorizationUrl).searchParams.get('client_id') ?? ''), undefined, 'the registration is deleted');
  const client = await connectClient(t, `${running.url}/hub`, '2026-07-28');
  const result = await client.callTool({ name: 'call_tool', arguments: { server: 'dyn', tool: 'secret' } });
  t.equal(result.isError, true, 'the running hub no longer holds a credential');
  await waitFor('the running hub to show unauthorized', () => child?.status === 'unauthorized');
  t.match((await admin('status', 'dyn')).stdout, /^dyn\tunauthorized/);
});
