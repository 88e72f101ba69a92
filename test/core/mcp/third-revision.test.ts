import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import type { PluginHub } from '../../../core/plugin-hub.js';
import { ALIAS } from '../../fixtures/plugins/alias-revision.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';

// A third revision is a plugin: one registered under a second name, built from the
// 2026-07-28 revision, is reached by a client pinned to it on both kinds of endpoint,
// while the built-in revisions keep working.
const plugin = fileURLToPath(new URL('../../fixtures/plugins/alias-revision.js', import.meta.url));
const setup = (hub: PluginHub) => void hub.servers.addInProcess('sink', createKitchenSink);
/** What the kitchen sink's `wrapped_colours` answers. */
const BLUE = '{"result":["blue"]}';
const text = (result: unknown) => ((result as CallToolResult).content[0] as { text?: string } | undefined)?.text;

async function pinnedClient(t: { teardown(fn: () => unknown): void }, url: string, revision: string): Promise<Client> {
  const client = new Client({ name: 'pinned', version: '1.0.0' }, { versionNegotiation: { mode: { pin: revision } }, supportedProtocolVersions: [revision, ...SUPPORTED_PROTOCOL_VERSIONS] });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  t.teardown(() => client.close());
  return client;
}

t.test(`a revision plugin under a second name (${ALIAS}) serves /<name>/mcp and /hub beside the built-in ones`, async (t) => {
  const { url } = await startTestHub(t, { setup, config: { plugins: { [plugin]: true, 'map-tools': false } } });

  const own = await pinnedClient(t, `${url}/sink/mcp`, ALIAS);
  t.equal(own.getNegotiatedProtocolVersion(), ALIAS, 'the pinned client negotiated the third revision');
  t.ok(
    (await own.listTools()).tools.some((tool) => tool.name === 'wrapped_colours'),
    'it lists the child’s tools',
  );
  t.equal(text(await own.callTool({ name: 'wrapped_colours', arguments: {} })), BLUE, 'and calls one through /<name>/mcp');

  const aggregate = await pinnedClient(t, `${url}/hub`, ALIAS);
  t.equal(aggregate.getNegotiatedProtocolVersion(), ALIAS);
  t.equal(text(await aggregate.callTool({ name: 'call_tool', arguments: { server: 'sink', tool: 'wrapped_colours', arguments: {} } })), BLUE, 'and through /hub');

  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/sink/mcp`, revision);
    t.equal(text(await client.callTool({ name: 'wrapped_colours', arguments: {} })), BLUE, `${revision} still works`);
  }

  const envelope = { [PROTOCOL_VERSION_META_KEY]: '2027-01-01', [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1.0.0' }, [CLIENT_CAPABILITIES_META_KEY]: {} };
  const refused = await rawRequest(`${url}/sink/mcp`, '2027-01-01', 'tools/list', {}, { meta: envelope, headers: { 'mcp-method': 'tools/list' } });
  t.equal(refused.error?.code, -32022, 'a revision nobody serves is refused');
  t.same((refused.error?.data as { supported: string[] }).supported.sort(), ['2026-07-28', ALIAS], 'naming the two of its kind it serves');
});

t.test('without its plugin, the second name is refused like any unknown revision', async (t) => {
  const { url } = await startTestHub(t, { setup, config: { plugins: { 'map-tools': false } } });
  await t.rejects(pinnedClient(t, `${url}/sink/mcp`, ALIAS));
});

t.test('a revision plugin that throws fails the request with a JSON-RPC error, never a request left hanging', async (t) => {
  const faulty = fileURLToPath(new URL('../../fixtures/plugins/faulty-revision.js', import.meta.url));
  const logs: string[] = [];
  const { url } = await startTestHub(t, { setup, logs, config: { plugins: { [faulty]: true, 'map-tools': false } } });
  const answer = await rawRequest(`${url}/sink/mcp`, '2099-01-01', 'tools/list');
  t.equal(answer.status, 500);
  t.same(answer.error, { code: -32603, message: 'Internal error' });
  t.equal(answer.messages.at(-1)?.id, 1, "through Fastify's error path, still answered with the request's id");
  t.ok(
    logs.some((line) => line.includes('a bug in a revision plugin')),
    'the cause is logged',
  );
});
