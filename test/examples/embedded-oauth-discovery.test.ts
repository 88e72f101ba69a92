import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import Fastify from 'fastify';
import t from 'tap';
import { hub } from '../../core/kernel.js';
import { hubWellKnown } from '../../core/http/well-known.js';
import { REVISIONS, type Revision } from '../helpers/clients.js';
import { MemoryOAuthProvider } from '../helpers/oauth-provider.js';
import { cookiesOf, form, hiddenFields } from '../plugins/oauth-as/browserless.js';

// Issue 43.2: embedded under /tools, the hub's OAuth discovery answers at the origin's
// root (RFC 8414, RFC 9728) once the app registers hubWellKnown, and the v2 SDK client's
// own OAuth provider discovers, registers, logs in and calls a tool through it.

const PASSWORD = 'correct horse';
const REDIRECT = 'http://127.0.0.1:9/callback';

function newClient(revision: Revision): Client {
  return new Client({ name: 'embedded-discovery', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
}

/** The approval page as a browser without JavaScript uses it: the form posted to its own action. */
async function approve(authorizationUrl: URL): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  if (page.status !== 200) throw new Error(`the authorization page answered ${page.status}`);
  const html = await page.text();
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
  const request = form({ ...hiddenFields(html), step: 'approve', password: PASSWORD });
  const decision = await fetch(new URL(action, authorizationUrl), { ...request, headers: { ...request.headers, cookie: cookiesOf(page) }, redirect: 'manual' });
  const location = decision.headers.get('location');
  if (decision.status !== 302 || !location) throw new Error(`the approval answered ${decision.status}`);
  return new URL(location);
}

async function embeddedHub(t: { teardown(fn: () => unknown): void }, withWellKnown: boolean): Promise<string> {
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  t.teardown(() => app.close());
  await app.register(hub, {
    prefix: '/tools',
    env: { DATA_PATH: await mkdtemp(join(tmpdir(), 'embed-oauth-')), HUB_PASSWORD: PASSWORD },
    config: { mcpServers: {}, plugins: { 'oauth-as': true } },
  });
  if (withWellKnown) await app.register(hubWellKnown, { hubPrefix: '/tools' });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

t.test('the discovery URLs the 401 names answer at the root of the host app', async (t) => {
  const origin = await embeddedHub(t, true);
  const refused = await fetch(`${origin}/tools/hub`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
  t.equal(refused.status, 401);
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get('www-authenticate') ?? '')?.[1];
  t.equal(metadataUrl, `${origin}/.well-known/oauth-protected-resource/tools/hub`, 'RFC 9728: the path after the well-known name');
  const resource = await fetch(metadataUrl ?? '');
  t.equal(resource.status, 200, 'and it answers');
  t.match(resource.headers.get('content-type'), /^application\/json/);
  const resourceMetadata = (await resource.json()) as { resource: string; authorization_servers: string[] };
  t.equal(resourceMetadata.resource, `${origin}/tools/hub`);
  t.same(resourceMetadata.authorization_servers, [`${origin}/tools`]);

  const server = await fetch(`${origin}/.well-known/oauth-authorization-server/tools`);
  t.equal(server.status, 200, 'RFC 8414: the issuer /tools has its metadata at the root with /tools after it');
  t.match(await server.json(), { issuer: `${origin}/tools`, token_endpoint: `${origin}/tools/token` });
  t.equal((await fetch(`${origin}/.well-known/openid-configuration/tools`)).status, 200);
  t.equal((await fetch(`${origin}/.well-known/oauth-protected-resource/tools/nosuch/mcp`)).status, 404, 'an unknown server has no resource metadata');
  t.equal((await fetch(`${origin}/.well-known/oauth-protected-resource`)).status, 404, "the root's own documents stay the app's");
});

t.test("the SDK client's OAuth provider discovers, logs in and calls a tool", async (t) => {
  const origin = await embeddedHub(t, true);
  const endpoint = new URL(`${origin}/tools/hub`);
  for (const revision of REVISIONS) {
    await t.test(revision, async (t) => {
      const provider = new MemoryOAuthProvider(REDIRECT, 'Embedded discovery test');
      const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
      await t.rejects(newClient(revision).connect(first), UnauthorizedError, 'the first connect needs authorization');
      const authorizationUrl = provider.authorizationUrl;
      if (!authorizationUrl) throw new Error('the SDK did not hand over an authorization URL');
      t.equal(authorizationUrl.origin + authorizationUrl.pathname, `${origin}/tools/authorize`, "the SDK found the hub's authorization endpoint");
      t.equal(authorizationUrl.searchParams.get('resource'), `${origin}/tools/hub`);
      t.match(authorizationUrl.searchParams.get('client_id'), /^hcd_/, 'it registered at the hub');
      const redirect = await approve(authorizationUrl);
      await first.finishAuth(redirect.searchParams);
      const client = newClient(revision);
      await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
      t.teardown(() => client.close());
      const listed = await client.callTool({ name: 'list_servers', arguments: {} });
      t.notOk(listed.isError, 'a tool call with the token');
      t.same((listed.structuredContent as { servers?: unknown } | undefined)?.servers, []);
    });
  }
});

t.test('without hubWellKnown the root names what nobody serves (what the app must add)', async (t) => {
  const origin = await embeddedHub(t, false);
  t.equal((await fetch(`${origin}/.well-known/oauth-protected-resource/tools/hub`)).status, 404);
});

t.test('hubWellKnown refuses a prefix that is not one', async (t) => {
  const app = Fastify({ logger: false });
  t.teardown(() => app.close());
  await t.rejects(
    async () => {
      await app.register(hubWellKnown, { hubPrefix: '/' });
    },
    { code: 'HUB_ERR_STARTUP', message: /hubPrefix/ },
  );
});
