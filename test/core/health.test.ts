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
  const { url } = await startTestHub(t, { setup: (hub) => void hub.children.addInProcess('demo', demoServer) });
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
  t.same(child.tools.map((tool) => tool.name), ['echo']);
  t.notOk(child.findTool('secret'), 'a denied tool is not found');
  const result = await client.callTool({ name: 'echo', arguments: {} });
  t.same(result.content, [{ type: 'text', text: 'hi' }]);
  await child.disconnect('stopped');
  t.equal(child.status, 'stopped');
});
