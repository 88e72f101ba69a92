import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { waitFor } from '../../core/children/helpers.js';
import { completeAuthorization, SCOPE, startUpstreamWorld } from './upstream-world.js';
import { freePort } from '../../helpers/net.js';
import { Operator, startUpstreamHub } from './upstream-hub.js';

t.test('dcr: unauthorized until the operator logs in on the hub page, then calls reach the upstream', async (t) => {
  const port = await freePort();
  const callback = `http://127.0.0.1:${port}/upstreams/callback`;
  const world = await startUpstreamWorld(t, () => [], callback);
  const { hub, url } = await startUpstreamHub(t, { port, servers: { dyn: { url: world.mcpUrl, oauth: { mode: 'dcr', scope: SCOPE } } } });
  const child = hub.children.get('dyn');
  if (!child) throw new Error('no child');

  await waitFor('the server to need a login', () => child.status === 'unauthorized');
  const health = (await (await fetch(`${url}/health`)).json()) as { servers: Record<string, string> };
  t.equal(health.servers.dyn, 'unauthorized', '/health shows unauthorized');
  const hubClient = await connectClient(t, `${url}/hub`, '2026-07-28');
  const listed = await hubClient.callTool({ name: 'list_servers', arguments: {} });
  t.match(listed.structuredContent, { servers: [{ name: 'dyn', status: 'unauthorized' }] }, 'list_servers shows unauthorized');
  const refused = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'dyn', tool: 'secret' } });
  t.equal(refused.isError, true);
  t.match(JSON.stringify(refused.content), /unauthorized/, 'a call names the status in its error');

  const operator = new Operator(url);
  t.match(await (await operator.request('/upstreams/dyn/login', { form: { _csrf: 'x' } })).text(), /Hub password/, 'no session: the password page, nothing done');
  t.equal((await operator.logIn('wrong')).status, 401, 'a wrong password is refused');
  const loggedIn = await operator.logIn();
  t.equal(loggedIn.status, 303);
  const page = await operator.page();
  t.match(page, /dyn<\/strong>: <span class="status">unauthorized/);
  t.equal((await operator.request('/upstreams/dyn/login', { form: { _csrf: 'forged' } })).status, 403, 'a forged CSRF token is refused');

  const started = await operator.press('dyn', 'login');
  t.equal(started.status, 303);
  const authorize = new URL(started.headers.get('location') ?? '');
  t.equal(authorize.origin, world.issuer, 'the login goes to the upstream authorization server');
  t.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
  t.equal(authorize.searchParams.get('resource'), world.mcpUrl, 'RFC 8707 resource from the RFC 9728 metadata');
  t.ok(authorize.searchParams.get('state'));
  const registered = await world.provider.Client.find(authorize.searchParams.get('client_id') ?? '');
  t.ok(registered, 'the hub registered itself dynamically');

  const back = await completeAuthorization(authorize.href, callback);
  t.ok(new URL(back).searchParams.get('iss'), 'the authorization response carries iss (RFC 9207)');
  const landed = await operator.request(back.slice(url.length));
  t.equal(landed.status, 200);
  t.match(await landed.text(), /logged in to <strong>dyn/);
  t.equal((await operator.request(back.slice(url.length))).status, 403, 'a callback is good once');

  await waitFor('the server to come up', () => child.status === 'up');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/dyn/mcp`, revision);
    const result = await client.callTool({ name: 'secret', arguments: {} });
    t.same(result.content, [{ type: 'text', text: 'the secret' }], `a call through /dyn/mcp on ${revision} reaches the upstream`);
  }
  t.equal(world.grants.authorization_code, 1, 'one code exchange');
});
