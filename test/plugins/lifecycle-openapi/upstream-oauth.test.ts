import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { freePort } from '../../helpers/net.js';
import { waitFor } from '../../core/children/helpers.js';
import { newDataPath, startUpstreamHub } from '../upstream-oauth/upstream-hub.js';
import { SCOPE, startUpstreamWorld } from '../upstream-oauth/upstream-world.js';

const SECRET = 'machine-secret-0123456789';

// The protected resource of the upstream-oauth tests (RFC 9728 metadata, JWT access tokens
// for its audience from oidc-provider) called as a REST API: POST of a JSON body.
const SPEC = `openapi: 3.1.0
info: { title: Protected, version: '1' }
paths:
  /:
    post:
      operationId: rpc
      parameters:
        - { name: Accept, in: header, required: true, schema: { type: string } }
        - { name: MCP-Protocol-Version, in: header, required: true, schema: { type: string } }
      requestBody: { required: true, content: { application/json: { schema: { type: object } } } }
      responses: { '200': { description: An answer } }
`;

t.test('an openapi server gets its bearer token from upstream-oauth (client_credentials)', async (t) => {
  const port = await freePort();
  const world = await startUpstreamWorld(
    t,
    () => [{ client_id: 'hub-machine', client_secret: SECRET, token_endpoint_auth_method: 'client_secret_post', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] }],
    `http://127.0.0.1:${port}/upstreams/callback`,
  );
  const folder = await mkdtemp(join(tmpdir(), 'openapi-oauth-'));
  await writeFile(join(folder, 'protected.yaml'), SPEC);
  const running = await startUpstreamHub(t, {
    port,
    dataPath: await newDataPath(),
    env: { MACHINE_SECRET: SECRET },
    servers: {
      api: {
        type: 'openapi',
        spec: join(folder, 'protected.yaml'),
        baseUrl: world.mcpUrl,
        oauth: { mode: 'static', clientId: 'hub-machine', clientSecretEnv: 'MACHINE_SECRET', grant: 'client_credentials', scope: SCOPE },
      },
    },
  });
  await waitFor('the api to be up', () => running.hub.children.get('api')?.status === 'up');
  const client = await connectClient(t, `${running.url}/api/mcp`, '2026-07-28');
  const result = await client.callTool({
    name: 'rpc',
    arguments: { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25', body: { jsonrpc: '2.0', id: 1, method: 'ping', params: {} } },
  });
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  t.notMatch(text, /401/, `the call was not refused for want of credentials: ${text}`);
  t.equal(world.grants.client_credentials, 1, 'one client_credentials grant, on the first 401');
  t.equal(world.seenTokens.length, 1, 'the retried call carried the token, which the resource verified (issuer, audience)');
});
