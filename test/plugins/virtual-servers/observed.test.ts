import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { echoMetaEntry } from '../observability/helpers.js';
import { startOtlpReceiver } from '../observability/otlp-receiver.js';
import { until } from './helpers.js';

// Issue 35 (38 here): traces of a kit's call name the virtual server and the underlying one.

const CLIENT = 3;

t.test("a kit call's spans: the request on /kit/mcp, the client span toward the underlying server naming both", async (t) => {
  const receiver = await startOtlpReceiver(t);
  const { app, url, hub } = await startTestHub(t, {
    config: { mcpServers: { meta: echoMetaEntry(), kit: { type: 'virtual', tools: [{ server: 'meta', tool: 'echo_meta', name: 'echo' }] } }, plugins: { 'map-tools': false } },
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
  });
  await hub.children.get('meta')?.ensureUp();
  t.ok(await until(() => hub.children.get('kit')?.findTool('echo') !== undefined));
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    await client.callTool({ name: 'echo', arguments: {} });
  }
  await app.close();
  const clients = receiver.spans.filter((span) => span.kind === CLIENT && span.name.startsWith('tools/call'));
  t.equal(clients.length, 2, 'one client span per call');
  for (const span of clients) {
    t.equal(span.name, 'tools/call echo_meta', "named after the underlying server's tool");
    t.match(span.attributes, { 'mcp_switchyard.server': 'meta', 'mcp_switchyard.virtual_server': 'kit', 'mcp_switchyard.virtual_tool': 'echo' });
    const server = receiver.spans.find((candidate) => candidate.spanId === span.parentSpanId);
    t.match(server?.attributes, { 'mcp_switchyard.endpoint': 'kit' }, 'under the request on /kit/mcp');
  }
});
