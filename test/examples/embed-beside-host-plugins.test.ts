import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import Fastify from 'fastify';
import t from 'tap';
import { hub } from '../../core/kernel.js';
import { REVISIONS, connectClient } from '../helpers/clients.js';
import { postOperatorLogin } from '../helpers/operator-login.js';

// Issue 43.3: a host app that registered @fastify/formbody, @fastify/cookie and
// @fastify/cors at its root embeds the hub (oauth-as and the operator pages on, which use
// formbody and cookie themselves) without a registration error, and both keep working.

async function hostApp(t: { teardown(fn: () => unknown): void }) {
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  await app.register(formbody);
  await app.register(cookie);
  await app.register(cors, { origin: 'https://app.example' });
  app.post('/echo', async (request) => ({ body: request.body, cookies: request.cookies }));
  t.teardown(() => app.close());
  return app;
}

t.test('the hub registers beside the host root formbody, cookie and cors', async (t) => {
  const app = await hostApp(t);
  const dataPath = await mkdtemp(join(tmpdir(), 'embed-host-'));
  await app.register(hub, {
    prefix: '/tools',
    env: { DATA_PATH: dataPath, HUB_PASSWORD: 'correct horse' },
    config: { mcpServers: {}, plugins: { 'oauth-as': true, 'tool-pinning': true } },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const echo = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'a=1', origin: 'https://app.example' }, body: 'x=2' });
  t.equal(echo.status, 200);
  t.same(await echo.json(), { body: { x: '2' }, cookies: { a: '1' } }, "the host's own parsers still serve its routes");
  t.equal(echo.headers.get('access-control-allow-origin'), 'https://app.example', "and the host's CORS");

  const metadata = await fetch(`${base}/tools/.well-known/oauth-authorization-server`);
  t.equal(metadata.status, 200, 'the hub answers under its prefix');
  const token = await fetch(`${base}/tools/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=nobody' });
  t.equal(token.status, 401, "the hub's form endpoint parses its form (an unknown client, not an unparsed body)");
  t.match(await token.json(), { error: 'invalid_client' });

  const page = await fetch(`${base}/tools/authorize?response_type=code&client_id=nobody`);
  t.equal(page.status, 400, 'the approval page answers, with the host cookie plugin');
  t.notMatch(await page.text(), /Internal Server Error/);

  for (const revision of REVISIONS) {
    const minted = await fetch(`${base}/tools/hub`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    t.equal(minted.status, 401, `${revision}: /hub still asks for a token`);
    await minted.body?.cancel();
  }
});

t.test('and beside them with the operator login pages and no oauth', async (t) => {
  const app = await hostApp(t);
  await app.register(hub, {
    prefix: '/tools',
    env: { DATA_PATH: await mkdtemp(join(tmpdir(), 'embed-host-')), HUB_PASSWORD: 'correct horse' },
    config: { mcpServers: {}, plugins: { 'oauth-as': false, 'tool-pinning': true } },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const page = await fetch(`${base}/tools/status`);
  t.equal(page.status, 200);
  const html = await page.text();
  const login = await postOperatorLogin(base, '/tools', page, html, 'correct horse');
  t.equal(login.status, 303, 'the login form is read with the host formbody and cookie');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${base}/tools/hub`, revision);
    const listed = await client.callTool({ name: 'list_servers', arguments: {} });
    t.notOk(listed.isError, `${revision}: a tool call through the embedded hub`);
  }
});
