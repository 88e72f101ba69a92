import type { PluginHub } from '../../../core/plugin-hub.js';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import t from 'tap';
import type { Hub } from '../../../core/hub.js';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';

/** A child whose `block` tool answers once the test opens the gate: calls held in flight at will. */
const gate: { entered: number; open: () => void } = { entered: 0, open: () => undefined };
const opened = new Promise<void>((resolve) => (gate.open = resolve));
function createGate(): McpServer {
  const server = new McpServer({ name: 'gate', version: '1.0.0' });
  server.registerTool('block', { description: 'Answers when the test says so' }, async () => {
    gate.entered += 1;
    await opened;
    return { content: [{ type: 'text', text: 'through' }] };
  });
  return server;
}

const setup = (hub: PluginHub) => {
  hub.servers.addInProcess('sink', createKitchenSink);
  hub.servers.addInProcess('gate', createGate);
};

/** A hub with oauth-as on, the kitchen sink as `sink`, and two API tokens: two clients. */
async function limitedHub(t: Parameters<typeof startTestHub>[0], env: Record<string, string>, kernel?: (hub: Hub) => void) {
  const { url, hub } = await startTestHub(t, { setup, config: { plugins: { 'oauth-as': true } }, env: { HUB_PASSWORD: 'pw', ...env }, ...(kernel && { kernel }) });
  const tokens = new ApiTokens(collections(hub.store), hub.settings.baseUrl);
  const [first, second] = await Promise.all([tokens.mint('first', 600), tokens.mint('second', 600)]);
  return { url, one: { authorization: `Bearer ${first.token}` }, other: { authorization: `Bearer ${second.token}` } };
}

/** The status and JSON body of a request whose answer may be a stream: a stream is not read. */
async function statusOf(url: string, headers: Record<string, string>, method: string, params: Record<string, unknown>) {
  const envelope = { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1' }, [CLIENT_CAPABILITIES_META_KEY]: {} };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof params.name === 'string' && { 'mcp-name': params.name }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: envelope } }),
  });
  const json = response.headers.get('content-type')?.startsWith('application/json') ? ((await response.json()) as Record<string, unknown>) : undefined;
  if (!json) await response.body?.cancel();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), json };
}

t.test('calls beyond CLIENT_CALLS_PER_MINUTE get 429 with Retry-After and a JSON-RPC error', async (t) => {
  // The counter's clock stands still in the middle of a minute: every call falls in one window, however slow the machine.
  const middleOfAMinute = Date.UTC(2100, 0, 1, 12, 0, 30);
  const { url, one, other } = await limitedHub(t, { CLIENT_CALLS_PER_MINUTE: '5' }, (hub) => void (hub.now = () => middleOfAMinute));
  for (let call = 1; call <= 5; call++) {
    const answer = await rawRequest(`${url}/sink/mcp`, '2026-07-28', 'tools/list', {}, { headers: one });
    t.equal(answer.status, 200, `call ${call} is served`);
  }
  for (const revision of ['2026-07-28', '2025-11-25']) {
    const refused = await rawRequest(`${url}/sink/mcp`, revision, 'tools/list', {}, { headers: one });
    t.equal(refused.status, 429, `the sixth call is refused (${revision})`);
    t.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After says when to come back');
    t.match(refused, { error: { code: -32000, message: /rate limit/i } }, 'the body is a JSON-RPC error');
  }
  const hubCall = await rawRequest(`${url}/hub`, '2026-07-28', 'tools/list', {}, { headers: one });
  t.equal(hubCall.status, 429, 'the limit is per client, across endpoints');
  const neighbour = await rawRequest(`${url}/sink/mcp`, '2026-07-28', 'tools/list', {}, { headers: other });
  t.equal(neighbour.status, 200, 'another client is not affected');
});

t.test('calls beyond CLIENT_MAX_CONCURRENT in flight get 429', async (t) => {
  const { url, one, other } = await limitedHub(t, { CLIENT_MAX_CONCURRENT: '2' });
  const held = [statusOf(`${url}/gate/mcp`, one, 'tools/call', { name: 'block', arguments: {} }), statusOf(`${url}/gate/mcp`, one, 'tools/call', { name: 'block', arguments: {} })];
  for (let attempt = 0; attempt < 400 && gate.entered < 2; attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(gate.entered, 2, 'two calls are in flight');
  const third = await statusOf(`${url}/sink/mcp`, one, 'tools/call', { name: 'list_colours', arguments: {} });
  t.equal(third.status, 429, 'a third call of the same client is refused');
  t.ok(Number(third.retryAfter) >= 1);
  t.match(third.json, { jsonrpc: '2.0', id: 7, error: { code: -32000, message: /concurrent/i } });
  t.equal((await statusOf(`${url}/sink/mcp`, other, 'tools/call', { name: 'list_colours', arguments: {} })).status, 200, 'another client is served');
  gate.open();
  t.same(
    (await Promise.all(held)).map((answer) => answer.status),
    [200, 200],
  );
  t.equal((await statusOf(`${url}/sink/mcp`, one, 'tools/call', { name: 'list_colours', arguments: {} })).status, 200, 'finished calls free their slots');
});

t.test('subscriptions/listen streams beyond CLIENT_MAX_STREAMS are refused for that client only', async (t) => {
  const { url, one, other } = await limitedHub(t, { CLIENT_MAX_STREAMS: '2' });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28', one);
  const streams = [await client.listen({ toolsListChanged: true }), await client.listen({ promptsListChanged: true })];
  const third = await statusOf(`${url}/sink/mcp`, one, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
  t.equal(third.status, 429, 'a third stream of the same client is refused');
  t.match(third.json, { jsonrpc: '2.0', id: 7, error: { code: -32000, message: /streams/i } });
  const neighbour = await connectClient(t, `${url}/sink/mcp`, '2026-07-28', other);
  const theirs = await neighbour.listen({ toolsListChanged: true });
  t.ok(theirs, 'another client still gets a stream');
  t.equal((await rawRequest(`${url}/sink/mcp`, '2026-07-28', 'tools/list', {}, { headers: one })).status, 200, 'open streams are not calls in flight');
  await Promise.all([...streams, theirs].map((stream) => stream.close()));
});
