import { join } from 'node:path';
import t from 'tap';
import { UpstreamKey } from '../../../plugins/upstream-oauth/key.js';
import { connectClient } from '../../helpers/clients.js';
import { waitFor } from '../../core/children/helpers.js';
import { SCOPE, startUpstreamWorld, type StaticClient } from './upstream-world.js';
import { freePort } from '../../helpers/net.js';
import { loginThroughPage, newDataPath, Operator, startUpstreamHub } from './upstream-hub.js';

const SECRETS = { basic: 'basic-secret-0123456789', post: 'post-secret-0123456789', machine: 'machine-secret-0123456789' };

t.test('every mode and client authentication against oidc-provider', async (t) => {
  const port = await freePort();
  const dataPath = await newDataPath();
  // The key the hub will sign with, created the way the hub creates it, so the static clients can name its public half.
  const jwks = await new UpstreamKey(join(dataPath, 'upstream-key.pem')).jwks();
  const interactive = (callback: string) => ({ grant_types: ['authorization_code', 'refresh_token'], redirect_uris: [callback], response_types: ['code'] });
  const machine = { grant_types: ['client_credentials'], redirect_uris: [], response_types: [] };
  const world = await startUpstreamWorld(
    t,
    (callback): StaticClient[] => [
      { client_id: 'hub-basic', client_secret: SECRETS.basic, token_endpoint_auth_method: 'client_secret_basic', ...interactive(callback) },
      { client_id: 'hub-post', client_secret: SECRETS.post, token_endpoint_auth_method: 'client_secret_post', ...interactive(callback) },
      { client_id: 'hub-public', token_endpoint_auth_method: 'none', ...interactive(callback) },
      { client_id: 'hub-jwt', token_endpoint_auth_method: 'private_key_jwt', jwks, ...interactive(callback) },
      { client_id: 'hub-machine', client_secret: SECRETS.machine, token_endpoint_auth_method: 'client_secret_post', ...machine },
      { client_id: 'hub-machine-jwt', token_endpoint_auth_method: 'private_key_jwt', jwks, ...machine },
    ],
    `http://127.0.0.1:${port}/upstreams/callback`,
  );
  const url = world.mcpUrl;
  const logs: string[] = [];
  const running = await startUpstreamHub(t, {
    port,
    dataPath,
    logs,
    env: { BASIC_SECRET: SECRETS.basic, POST_SECRET: SECRETS.post, MACHINE_SECRET: SECRETS.machine },
    servers: {
      basic: { url, oauth: { mode: 'static', clientId: 'hub-basic', clientSecretEnv: 'BASIC_SECRET', clientAuth: 'client_secret_basic', scope: SCOPE } },
      post: { url, oauth: { mode: 'static', clientId: 'hub-post', clientSecretEnv: 'POST_SECRET', clientAuth: 'client_secret_post', scope: SCOPE } },
      public: { url, oauth: { mode: 'static', clientId: 'hub-public', scope: SCOPE } },
      jwt: { url, oauth: { mode: 'static', clientId: 'hub-jwt', clientAuth: 'private_key_jwt', scope: SCOPE } },
      dcrjwt: { url, oauth: { mode: 'dcr', clientAuth: 'private_key_jwt', scope: SCOPE } },
      dcrbasic: { type: 'sse', url, oauth: { mode: 'dcr', clientAuth: 'client_secret_basic', scope: SCOPE } },
      machine: { url, oauth: { mode: 'static', clientId: 'hub-machine', clientSecretEnv: 'MACHINE_SECRET', grant: 'client_credentials', scope: SCOPE } },
      machinejwt: { url, oauth: { mode: 'static', clientId: 'hub-machine-jwt', clientAuth: 'private_key_jwt', grant: 'client_credentials', scope: SCOPE } },
    },
  });
  const status = (name: string) => running.hub.children.get(name)?.status;

  await waitFor('the machine upstreams to connect on their own', () => status('machine') === 'up' && status('machinejwt') === 'up');
  t.equal(world.grants.client_credentials, 2, 'client_credentials, with a secret and with private_key_jwt');
  for (const name of ['machine', 'machinejwt']) {
    const client = await connectClient(t, `${running.url}/${name}/mcp`, '2026-07-28');
    t.same((await client.callTool({ name: 'secret', arguments: {} })).content, [{ type: 'text', text: 'the secret' }], `${name}: a call reaches the upstream`);
  }

  const operator = new Operator(running.url);
  for (const name of ['basic', 'post', 'public', 'jwt', 'dcrjwt']) {
    await waitFor(`${name} to need a login`, () => status(name) === 'unauthorized');
    const authorize = await loginThroughPage(operator, running.url, name);
    await waitFor(`${name} to come up after the login`, () => status(name) === 'up');
    const client = await connectClient(t, `${running.url}/${name}/mcp`, '2025-11-25');
    t.same((await client.callTool({ name: 'secret', arguments: {} })).content, [{ type: 'text', text: 'the secret' }], `${name}: logged in and called`);
    if (name === 'dcrjwt') {
      const registered = (await world.provider.Client.find(authorize.searchParams.get('client_id') ?? '')) as { tokenEndpointAuthMethod?: string } | undefined;
      t.equal(registered?.tokenEndpointAuthMethod, 'private_key_jwt', 'the registration carries the public key for private_key_jwt');
    }
  }
  t.equal(world.grants.authorization_code, 5, 'five code exchanges, one per client authentication');

  // The SSE child type speaks only the legacy era; the upstream serves Streamable HTTP, so it stays down; the login still works.
  const dcrbasic = await loginThroughPage(operator, running.url, 'dcrbasic');
  t.ok(dcrbasic.searchParams.get('client_id'), 'dcr with client_secret_basic registers and logs in');
  t.equal(world.grants.authorization_code, 6);

  const text = logs.join('\n');
  const secrets = [...Object.values(SECRETS), ...world.seenTokens];
  t.ok(logs.length > 0, 'the hub logged');
  t.notOk(
    secrets.some((secret) => text.includes(secret)),
    'no token or secret in the hub log',
  );
});
