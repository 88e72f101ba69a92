import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import t from 'tap';
import type { Hub } from '../../core/hub.js';
import { hub, onKernel } from '../../core/kernel.js';
import { ApiTokens } from '../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../plugins/oauth-as/records.js';
import { connectClient, REVISIONS } from '../helpers/clients.js';

// Issue 32, item 5: embedded without a base URL, the hub advertises the address the app
// listens on, under the prefix it is registered with.

t.test('embedded under /tools on a port of its own, the hub advertises that URL', async (t) => {
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  let context: Hub | undefined;
  app.get('/hello', async () => ({ hello: 'app' }));
  await app.register(hub, {
    prefix: '/tools',
    env: { DATA_PATH: await mkdtemp(join(tmpdir(), 'embedded-base-url-')), HUB_PASSWORD: 'correct horse' },
    config: { mcpServers: {}, plugins: { 'map-tools': false } },
    [onKernel]: (created) => void (context = created),
  });
  t.teardown(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const base = `${origin}/tools`;
  t.equal(context?.settings.baseUrl, base, 'the base URL is the one served');

  const metadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as { issuer: string; token_endpoint: string };
  t.equal(metadata.issuer, base, 'the OAuth metadata names it');
  t.equal(metadata.token_endpoint, `${base}/token`);
  const resource = (await (await fetch(`${base}/.well-known/oauth-protected-resource/hub`)).json()) as { resource: string };
  t.equal(resource.resource, `${base}/hub`);
  const refused = await fetch(`${base}/hub`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(refused.status, 401);
  t.match(refused.headers.get('www-authenticate'), `resource_metadata="${origin}/.well-known/oauth-protected-resource/tools/hub"`);

  if (!context) throw new Error('no hub');
  const { token } = await new ApiTokens(collections(context.store), context.settings.baseUrl).mint('embedded', 600);
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${base}/hub`, revision, { authorization: `Bearer ${token}` });
    t.notOk((await client.callTool({ name: 'list_servers', arguments: {} })).isError, `${revision}: a token for that URL is accepted`);
  }
});
