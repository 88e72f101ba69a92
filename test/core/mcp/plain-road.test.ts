import { SERVER_INFO_META_KEY, type CallToolResult } from '@modelcontextprotocol/client';
import t from 'tap';
import { kitchenSinkObserved } from '../../fixtures/servers/kitchen-sink.js';
import { asEventStream, startHttpSink } from '../../fixtures/servers/http-sink.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest, type JsonRpcAnswer } from '../../helpers/raw.js';
import { waitFor } from '../children/helpers.js';

// The hub's own request ids on the plain road; the SDK client numbers its requests.
const PLAIN_ID = /^hub-\d+$/;

t.test('a plain call to a 2026 HTTP child takes the plain road and answers as the SDK road does', async (t) => {
  const sink = await startHttpSink(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url, headers: { 'X-Team': 'maps' } } } } });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/sink/mcp`, revision);
    sink.calls.length = 0;
    const plain = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } });
    const withProgress = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } }, { onprogress: () => undefined });
    t.same(plain.content, [{ type: 'text', text: 'done after 1 steps' }], `${revision}: the child's result`);
    t.same(plain.content, withProgress.content, `${revision}: the same result on both roads`);
    // 2026 results state the server's identity (the child's own, as it stated it); 2025 results carry none.
    const identity = revision === '2026-07-28' ? { name: 'kitchen-sink', title: 'Kitchen sink', version: '1.0.0' } : undefined;
    for (const result of [plain, withProgress]) t.same(result._meta?.[SERVER_INFO_META_KEY], identity, `${revision}: the child's identity on both roads`);
    t.match(String(sink.calls[0]?.id), PLAIN_ID, `${revision}: the plain call took the plain road`);
    t.notMatch(String(sink.calls[1]?.id), PLAIN_ID, `${revision}: a call with a progress token took the SDK road`);
    t.equal(sink.calls[0]?.headers['x-team'], 'maps', "the entry's static headers go out on the plain road");
    t.equal(sink.calls[0]?.headers['mcp-name'], 'slow_with_progress', 'with the standard headers of the revision');
  }
});

t.test('a tool with an output schema, a question or a filter stays off the plain road', async (t) => {
  const sink = await startHttpSink(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url, denyTools: ['hidden_by_filter'] } } } });
  const legacy = await connectClient(t, `${url}/sink/mcp`, '2025-11-25');
  const wrapped = await legacy.callTool({ name: 'list_colours', arguments: {} });
  t.same(wrapped.structuredContent, { result: ['red', 'green'] }, 'the output schema was checked by the SDK and the value wrapped for 2025');
  t.notMatch(String(sink.calls.at(-1)?.id), PLAIN_ID, 'a tool with an output schema took the SDK road');
  const modern = await connectClient(t, `${url}/sink/mcp`, '2026-07-28', {}, { capabilities: { elicitation: { form: {} } } });
  const question = await modern.callTool({ name: 'confirm_deploy', arguments: { env: 'prod' } }, { allowInputRequired: true });
  t.equal((question as { resultType?: string }).resultType, 'input_required', 'a caller that can answer gets the question');
  t.notMatch(String(sink.calls.at(-1)?.id), PLAIN_ID, 'a caller declaring elicitation took the SDK road');
  const before = sink.calls.length;
  await t.rejects(modern.callTool({ name: 'hidden_by_filter', arguments: {} }), /Unknown tool: hidden_by_filter/, 'a filtered tool is unknown');
  t.equal(sink.calls.length, before, 'and never reaches the child');
});

t.test("on the plain road a caller's cancellation and the call timeout reach the child", async (t) => {
  const sink = await startHttpSink(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } }, env: { TOOL_CALL_TIMEOUT_MS: '400' } });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const before = kitchenSinkObserved.cancellations;
  const abort = new AbortController();
  const call = client.callTool({ name: 'hang', arguments: {} }, { signal: abort.signal });
  await waitFor('the call to reach the child', () => sink.calls.length === 1);
  t.match(String(sink.calls[0]?.id), PLAIN_ID, 'the call took the plain road');
  abort.abort(new Error('the person gave up'));
  await t.rejects(call, /gave up/, 'the caller stops waiting');
  await waitFor('the child to see the cancellation', () => kitchenSinkObserved.cancellations > before);
  const timedOut = await client.callTool({ name: 'hang', arguments: {} });
  t.equal(timedOut.isError, true, 'a call past the timeout is a tool error');
  t.equal((timedOut.content as Array<{ text: string }>)[0]?.text, 'Tool call failed: server "sink": Request timed out', "the SDK road's words for a timeout");
  await waitFor('the child to see the timed-out call end', () => kitchenSinkObserved.cancellations > before + 1);
  t.equal(kitchenSinkObserved.cancellations, before + 2, 'the child saw both calls end');
});

t.test('an answer that comes as an event stream is read up to its response', async (t) => {
  const sink = await startHttpSink(t, { rewrite: asEventStream });
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } } });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const result = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } });
  t.same(result.content, [{ type: 'text', text: 'done after 1 steps' }], 'the response after the notification');
  t.match(String(sink.calls[0]?.id), PLAIN_ID, 'the call took the plain road');
});

/** A 2026 `tools/call` by hand; `meta` joins the envelope, `nameHeader` replaces the Mcp-Name header. */
function postCall(url: string, name: string, args: Record<string, unknown>, { meta = {}, nameHeader = name } = {}) {
  return rawRequest<CallToolResult>(url, '2026-07-28', 'tools/call', { name, arguments: args }, { meta, headers: { 'mcp-name': nameHeader } });
}

/** Only the plain road knows the whole answer before it writes; the SDK's streams it in chunks. */
function tookPlainRoad(answer: JsonRpcAnswer<CallToolResult>): boolean {
  return answer.headers.has('content-length');
}

t.test('/hub answers a plain call_tool itself, with the answers and errors of the SDK road', async (t) => {
  const sink = await startHttpSink(t);
  const { url, hub } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } } });
  const call = { server: 'sink', tool: 'slow_with_progress', arguments: { steps: 1 } };
  const plain = await postCall(`${url}/hub`, 'call_tool', call);
  const sdk = await postCall(`${url}/hub`, 'call_tool', call, { meta: { progressToken: 'p1' } });
  t.ok(tookPlainRoad(plain), 'a plain call took the plain road');
  t.notOk(tookPlainRoad(sdk), 'a call with a progress token took the SDK road');
  t.same(plain.result?.content, [{ type: 'text', text: 'done after 1 steps' }], "the child's result");
  t.same(plain.result?.content, sdk.result?.content, 'the same result on both roads');
  t.same(plain.result?._meta?.[SERVER_INFO_META_KEY], { name: 'mcp-hub', title: 'MCP hub', version: hub.version }, "the hub's identity");
  t.same(plain.result?._meta?.[SERVER_INFO_META_KEY], sdk.result?._meta?.[SERVER_INFO_META_KEY], 'on both roads');

  const badPlain = await postCall(`${url}/hub`, 'call_tool', { server: 'sink' });
  const badSdk = await postCall(`${url}/hub`, 'call_tool', { server: 'sink' }, { meta: { progressToken: 'p2' } });
  t.equal(badPlain.result?.isError, true, 'arguments against the schema are a tool error');
  t.match(badPlain.result?.content, [{ type: 'text', text: /^Invalid arguments for call_tool: / }]);
  t.same(badPlain.result?.content, badSdk.result?.content, 'the same on both roads');

  const unknown = await postCall(`${url}/hub`, 'no_such_tool', {});
  t.same(unknown.error, { code: -32602, message: 'Unknown tool: no_such_tool' }, "an unknown tool is the SDK's error");
  const mismatched = await postCall(`${url}/hub`, 'call_tool', call, { nameHeader: 'list_servers' });
  t.equal(mismatched.status, 400, 'a Mcp-Name header that contradicts the body is refused by the SDK');
  t.notOk(tookPlainRoad(mismatched) && mismatched.result, 'and never runs');
});

t.test("a child's refusal reads the same on both roads", async (t) => {
  const sink = await startHttpSink(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } } });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const plain = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 'many' } });
  const sdk = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 'many' } }, { onprogress: () => undefined });
  t.match(String(sink.calls[0]?.id), PLAIN_ID, 'the first call took the plain road');
  t.equal(plain.isError, true, 'arguments the child refuses are a tool error');
  t.same(plain.content, sdk.content, 'with the same text on both roads');
});

t.test('a child failing with an HTTP error gives a tool error that names the status, with a bounded excerpt', async (t) => {
  const sink = await startHttpSink(t, { rewrite: async () => new Response('overloaded '.repeat(1000), { status: 503 }) });
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } } });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const result = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } });
  t.match(String(sink.calls[0]?.id), PLAIN_ID, 'the call took the plain road');
  t.equal(result.isError, true);
  const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
  t.match(text, /^Tool call failed: server "sink": HTTP 503: Error POSTing to endpoint: overloaded overloaded/);
  t.ok(text.length < 500, 'the excerpt of the body is bounded');
});

t.test('a redirect on the plain road is left to the SDK client, which follows it within the origin', async (t) => {
  let redirects = 0;
  const sink = await startHttpSink(t, {
    // The plain road's attempt and the SDK client's first are both sent elsewhere.
    rewrite: async (answer) => (redirects++ < 2 ? new Response(null, { status: 307, headers: { location: '/mcp?moved' } }) : answer),
  });
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } } });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const result = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } });
  t.same(result.content, [{ type: 'text', text: 'done after 1 steps' }], 'the call succeeded');
  t.match(String(sink.calls[0]?.id), PLAIN_ID, 'the plain road met the redirect');
  t.notMatch(String(sink.calls[1]?.id), PLAIN_ID, 'then the SDK road took the call');
  t.match(sink.calls[2]?.url, /\?moved$/, 'and followed the redirect');
  t.equal(sink.calls.length, 3);
});

/** A stateless 2025-11-25 `tools/call` by hand; with a progress token it needs the SDK road. */
function postLegacyCall(url: string, name: string, args: Record<string, unknown>, progressToken?: string) {
  return rawRequest<CallToolResult>(url, '2025-11-25', 'tools/call', { name, arguments: args }, progressToken ? { meta: { progressToken } } : {});
}

t.test('a plain 2025-11-25 call takes the plain road too, with the revision answer of the SDK road', async (t) => {
  const sink = await startHttpSink(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } } });
  for (const [name, args] of [
    ['slow_with_progress', { steps: 1 }],
    ['list_colours', {}],
  ] as const) {
    const plain = await postLegacyCall(`${url}/sink/mcp`, name, args);
    const sdk = await postLegacyCall(`${url}/sink/mcp`, name, args, 'p1');
    t.ok(tookPlainRoad(plain), `${name}: a plain call took the plain road`);
    t.notOk(tookPlainRoad(sdk), `${name}: a call with a progress token took the SDK road`);
    t.same(plain.result, sdk.result, `${name}: the same result on both roads`);
    t.equal(plain.result?._meta, undefined, `${name}: no server identity on 2025-11-25, not even the child's`);
  }
  const wrapped = await postLegacyCall(`${url}/sink/mcp`, 'list_colours', {});
  t.same(wrapped.result?.structuredContent, { result: ['red', 'green'] }, 'a non-object value is wrapped for 2025-11-25');
  const viaHub = await postLegacyCall(`${url}/hub`, 'call_tool', { server: 'sink', tool: 'slow_with_progress', arguments: { steps: 1 } });
  t.ok(tookPlainRoad(viaHub), 'call_tool on /hub took the plain road');
  t.same(viaHub.result?.content, [{ type: 'text', text: 'done after 1 steps' }]);
  const unknown = await postLegacyCall(`${url}/sink/mcp`, 'no_such_tool', {});
  t.same(unknown.error, { code: -32602, message: 'Tool no_such_tool not found' }, "a tool the child does not list is the child's to answer");
});

t.test('a revision whose plugin is disabled is refused, plain call or not', async (t) => {
  const sink = await startHttpSink(t);
  const servers = { sink: { type: 'http', url: sink.url } };
  const modernOnly = await startTestHub(t, { config: { mcpServers: servers, plugins: { 'mcp-2025-11-25': false } } });
  const legacyCall = await postLegacyCall(`${modernOnly.url}/sink/mcp`, 'slow_with_progress', { steps: 1 });
  t.equal(legacyCall.error?.code, -32022, 'a 2025-11-25 call gets the unsupported-revision error');
  t.equal(legacyCall.result, undefined, 'and no result');
  const legacyOnly = await startTestHub(t, { config: { mcpServers: servers, plugins: { 'mcp-2026-07-28': false } } });
  const modernCall = await postCall(`${legacyOnly.url}/sink/mcp`, 'slow_with_progress', { steps: 1 });
  t.equal(modernCall.error?.code, -32022, 'a 2026-07-28 call gets the unsupported-revision error');
  t.equal(modernCall.result, undefined, 'and no result');
  t.equal(sink.calls.length, 0, 'neither reached the child');
});
