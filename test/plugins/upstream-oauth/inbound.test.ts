import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { waitFor } from '../../core/children/helpers.js';
import { SCOPE, startUpstreamWorld } from './upstream-world.js';
import { freePort } from '../../helpers/net.js';
import { startUpstreamHub } from './upstream-hub.js';
import { runAdminCommand } from '../../helpers/admin.js';

t.test("the inbound client's token never goes upstream: only the deployment's does", async (t) => {
  const port = await freePort();
  const world = await startUpstreamWorld(
    t,
    () => [
      { client_id: 'hub-machine', client_secret: 'machine-secret', token_endpoint_auth_method: 'client_secret_basic', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
    ],
    `http://127.0.0.1:${port}/upstreams/callback`,
  );
  const running = await startUpstreamHub(t, {
    port,
    inbound: true,
    env: { MACHINE_SECRET: 'machine-secret' },
    servers: {
      machine: {
        url: world.mcpUrl,
        oauth: { mode: 'static', clientId: 'hub-machine', clientSecretEnv: 'MACHINE_SECRET', clientAuth: 'client_secret_basic', grant: 'client_credentials', scope: SCOPE },
      },
    },
  });
  await waitFor('the machine upstream to connect', () => running.hub.children.get('machine')?.status === 'up');
  const inbound = (await runAdminCommand(running.hub.adminCommands.get('tokens'), ['mint', '--all', '--label', 'test'])).stdout.trim();
  t.ok(inbound.length > 20, 'an inbound API token was minted');

  const client = await connectClient(t, `${running.url}/machine/mcp`, '2026-07-28', { authorization: `Bearer ${inbound}` });
  t.same((await client.callTool({ name: 'secret', arguments: {} })).content, [{ type: 'text', text: 'the secret' }]);
  t.ok(world.seenTokens.length > 0, 'the upstream saw bearer tokens');
  t.notOk(world.seenTokens.includes(inbound), "none of them was the inbound client's");
});
