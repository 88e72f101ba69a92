import t from 'tap';
import { McpServer } from '@modelcontextprotocol/server';
import { startTestHub } from '../helpers/hub.js';

function demoServer() {
  const server = new McpServer({ name: 'demo', title: 'Demo server', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echo the text back\nSecond line' }, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
  server.registerTool('secret', { description: 'Filtered out' }, async () => ({ content: [] }));
  return server;
}

t.test('GET /health answers 200 with every server and its status', async (t) => {
  const { url } = await startTestHub(t, { setup: (hub) => void hub.servers.addInProcess('demo', demoServer) });
  const response = await fetch(`${url}/health`);
  t.equal(response.status, 200);
  const body = (await response.json()) as { status: string; servers: Record<string, string> };
  t.equal(body.status, 'ok');
  t.ok(['starting', 'up'].includes(body.servers.demo ?? ''), 'the always-running in-process child is started at ready');
});

t.test('in-process children answer through the SDK client, with the allow/deny filter applied', async (t) => {
  const { hub } = await startTestHub(t);
  const child = hub.children.addInProcess('demo', demoServer, { denyTools: ['secret'] });
  t.equal(child.status, 'down', 'an always-running child is down until connected');
  const client = await child.ensureUp();
  t.equal(child.status, 'up');
  t.equal(child.description, 'Demo server');
  t.same(
    child.tools.map((tool) => tool.name),
    ['echo'],
  );
  t.notOk(child.findTool('secret'), 'a denied tool is not found');
  const result = await client.callTool({ name: 'echo', arguments: {} });
  t.same(result.content, [{ type: 'text', text: 'hi' }]);
  await child.disconnect('stopped');
  t.equal(child.status, 'stopped');
});

// Issue 18, item 8: probes for load balancers, and /health that says when it is degraded.

t.test('/livez and /readyz answer 200 on a serving hub, waking nothing', async (t) => {
  const { url, hub } = await startTestHub(t, { config: { plugins: { 'map-tools': false }, mcpServers: { lazy: { command: 'no-such-command-at-all' } } } });
  t.same(await (await fetch(`${url}/livez`)).json(), { status: 'ok' });
  const ready = await fetch(`${url}/readyz`);
  t.equal(ready.status, 200);
  t.same(await ready.json(), { status: 'ready' });
  t.equal(hub.children.get('lazy')?.status, 'sleeping', 'no probe woke a server');
  const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
  t.same(health, { status: 'ok', servers: { lazy: 'sleeping' } }, 'a sleeping server is not a problem');
});

t.test('/readyz answers 503 with the reason when the store is not reachable', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { MONGODB_URL: 'mongodb://127.0.0.1:9/hub?serverSelectionTimeoutMS=500' } });
  const response = await fetch(`${url}/readyz`);
  t.equal(response.status, 503);
  t.match(await response.json(), { status: 'not ready', reasons: [/^the mongodb store is not reachable: /] });
  t.equal((await fetch(`${url}/livez`)).status, 200, 'the process still serves');
});

t.test('/health is degraded with the reasons, which only loopback callers see', async (t) => {
  const { url, app, hub } = await startTestHub(t, { config: { plugins: { 'map-tools': false }, mcpServers: { broken: { command: 'no-such-command-at-all' } } } });
  await hub.children
    .get('broken')
    ?.ensureUp()
    .catch(() => undefined);
  const local = await fetch(`${url}/health`);
  t.equal(local.status, 200, 'the detailed view answers 200; /readyz is the probe that fails');
  t.match(await local.json(), { status: 'degraded', servers: { broken: 'down' }, reasons: { broken: /cannot run "no-such-command-at-all"/ } });
  const remote = await app.inject({ url: '/health', remoteAddress: '203.0.113.5' });
  t.same(remote.json(), { status: 'degraded', servers: { broken: 'down' } }, 'a remote caller sees the statuses only');
});
