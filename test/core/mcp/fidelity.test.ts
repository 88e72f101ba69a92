import { createServer } from 'node:http';
import { join } from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import t from 'tap';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { startHttpSink } from '../../fixtures/servers/http-sink.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { rawRequest } from '../../helpers/raw.js';
import { fixtureEntry, tempDir } from '../children/helpers.js';

// Issue 15's nine defects of the per-server endpoint as a transparent proxy, each as a
// client nobody here wrote would meet it.

/** Rewrites the result in a child's answer, whether it came as JSON or as an event stream. */
function rewritingResults(change: (result: Record<string, unknown>) => Record<string, unknown>) {
  return async (answer: Response): Promise<Response> => {
    const text = await answer.text();
    const rewrite = (json: string): string => {
      const message = JSON.parse(json) as { result?: Record<string, unknown> };
      return JSON.stringify(message.result ? { ...message, result: change(message.result) } : message);
    };
    const type = answer.headers.get('content-type') ?? 'application/json';
    const body = type.startsWith('text/event-stream') ? text.replace(/^data: (.*)$/gm, (_line, json: string) => `data: ${rewrite(json)}`) : rewrite(text);
    return new Response(body, { status: answer.status, headers: { 'content-type': type } });
  };
}

/** A child's answer with `resultType` taken out of its result, as some 2026 servers send it. */
const withoutResultType = rewritingResults(({ resultType: _complete, ...result }) => result);

t.test('1: a 2026 child that leaves resultType out of its results reaches callers of both revisions, on both roads', async (t) => {
  const sink = await startHttpSink(t, { rewrite: withoutResultType });
  const logs: string[] = [];
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } }, logs });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/sink/mcp`, revision);
    const plain = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } });
    const withProgress = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } }, { onprogress: () => undefined });
    for (const result of [plain, withProgress]) {
      t.notOk(result.isError, `${revision}: not an error`);
      t.same(result.content, [{ type: 'text', text: 'done after 1 steps' }], `${revision}: the child's content`);
    }
  }
  t.equal(logs.filter((line) => line.includes('leave out what its MCP revision requires')).length, 1, 'the hub says once that it reads such results as complete');
});

t.test('2: every progress notification reaches the caller before the result, even when the child sends them all with it', async (t) => {
  const directory = await tempDir(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { burst: fixtureEntry('progress-burst', join(directory, 'starts')) } } });
  for (const revision of REVISIONS) {
    for (const [endpoint, name, args] of [
      ['burst/mcp', 'count', {}],
      ['hub', 'call_tool', { server: 'burst', tool: 'count', arguments: {} }],
    ] as const) {
      for (let round = 1; round <= 3; round += 1) {
        const answer = await rawRequest(`${url}/${endpoint}`, revision, 'tools/call', { name, arguments: args }, { meta: { progressToken: `p${round}` } });
        const progress = answer.messages.filter((message) => message.method === 'notifications/progress').map((message) => message.params?.progress);
        t.same(progress, [1, 2, 3], `${revision} /${endpoint} round ${round}: all three, in order`);
        t.same(answer.result?.content, [{ type: 'text', text: 'counted to three' }], `${revision} /${endpoint} round ${round}: then the result`);
      }
    }
  }
});

t.test("3: a child's protocol error reaches the caller as the same protocol error, on both roads", async (t) => {
  const fixture = await startConformanceFixture(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { conformance: { type: 'http', url: fixture } } } });
  for (const meta of [undefined, { progressToken: 'sdk-road' }]) {
    const road = meta ? 'the SDK road' : 'the plain road';
    const direct = await rawRequest(fixture, '2026-07-28', 'tools/call', { name: 'test_missing_capability', arguments: {} }, meta ? { meta } : {});
    t.equal(direct.error?.code, -32021, `${road}: directly, the missing-capability error`);
    const proxied = await rawRequest(`${url}/conformance/mcp`, '2026-07-28', 'tools/call', { name: 'test_missing_capability', arguments: {} }, meta ? { meta } : {});
    t.equal(proxied.status, direct.status, `${road}: the same HTTP status (${direct.status})`);
    t.same(proxied.error, direct.error, `${road}: the same JSON-RPC error`);
    t.notOk(proxied.result, `${road}: no tool result`);
  }
  const viaHub = await rawRequest(`${url}/hub`, '2026-07-28', 'tools/call', { name: 'call_tool', arguments: { server: 'conformance', tool: 'test_missing_capability' } });
  t.match(viaHub.result, { isError: true, content: [{ text: /server "conformance" answered with error -32021/ }] }, 'call_tool tells the model the code');
});

t.test('4: a question on a request other than a tool call comes back to a caller that can answer it', async (t) => {
  const fixture = await startConformanceFixture(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { conformance: { type: 'http', url: fixture } } } });
  const client = await connectClient(t, `${url}/conformance/mcp`, '2026-07-28', {}, { capabilities: { elicitation: { form: {} } } });
  const question = (await client.getPrompt({ name: 'test_input_required_result_prompt' }, { allowInputRequired: true })) as unknown as {
    resultType?: string;
    inputRequests?: Record<string, { method: string }>;
  };
  t.equal(question.resultType, 'input_required', 'the prompt asks first');
  t.equal(question.inputRequests?.user_context?.method, 'elicitation/create', 'an elicitation, passed on as the child asked it');
  const answered = await client.getPrompt({
    name: 'test_input_required_result_prompt',
    inputResponses: { user_context: { action: 'accept', content: { context: 'maps' } } },
  } as never);
  t.same(answered.messages, [{ role: 'user', content: { type: 'text', text: 'Prompt with context: maps' } }], 'the retry with the answer gets the prompt');
});

t.test('5: a remote child that never acknowledges its listen stream does not hold up listing', async (t) => {
  let listens = 0;
  const handler = createMcpHandler(() => createKitchenSink());
  const node = toNodeHandler(handler);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      // The stream is accepted and then left silent: no acknowledgement, ever.
      if (body.includes('"subscriptions/listen"')) {
        listens += 1;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        return;
      }
      void node(request, response, body === '' ? undefined : JSON.parse(body));
    });
  });
  t.teardown(() => server.closeAllConnections());
  const port = await listenOnLoopback(t, server);
  const { url } = await startTestHub(t, { config: { mcpServers: { quiet: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } } } });
  const client = await connectClient(t, `${url}/quiet/mcp`, '2026-07-28');
  // The hub's own wait for an acknowledgement is the SDK's 60 s; listing must not wait for it.
  const { tools } = await client.listTools(undefined, { timeout: 20_000 });
  t.ok(
    tools.some((tool) => tool.name === 'slow_with_progress'),
    "the child's tools",
  );
  t.ok(listens >= 1, 'while the listen stream the hub opened is still unacknowledged');
});

t.test('6: every answer of an MCP endpoint is JSON-RPC, whatever the body', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: {} } });
  const post = async (body: string, contentType = 'application/json') => {
    const response = await fetch(`${url}/hub`, {
      method: 'POST',
      headers: { 'content-type': contentType, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body,
    });
    return { status: response.status, message: (await response.json()) as { jsonrpc?: string; error?: { code: number; message: string } } };
  };
  const cases: Array<[string, string, number, number]> = [
    ['a malformed body', '{"jsonrpc":', 400, -32700],
    ['an empty body', '', 400, -32700],
    ['a body over the limit', `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}}`, 413, -32600],
    ['JSON nested 5,000 levels', `${'['.repeat(5_000)}${']'.repeat(5_000)}`, 400, -32600],
    ['a prototype key', '{"jsonrpc":"2.0","id":1,"method":"ping","__proto__":{"polluted":true}}', 400, -32600],
  ];
  for (const [what, body, status, code] of cases) {
    const answer = await post(body);
    t.equal(answer.status, status, `${what}: HTTP ${status}`);
    t.equal(answer.message.jsonrpc, '2.0', `${what}: a JSON-RPC answer`);
    t.equal(answer.message.error?.code, code, `${what}: error ${code}`);
  }
  const wrongType = await post('{}', 'text/plain');
  t.equal(wrongType.status, 415, 'a body that is not JSON is refused as the SDK refuses it');
  t.equal(wrongType.message.jsonrpc, '2.0', 'in JSON-RPC');
});

t.test('7: a tool call for a server that cannot start says which server and why, within the wake budget', async (t) => {
  const { url, hub } = await startTestHub(t, { config: { mcpServers: { broken: { command: '/nonexistent/mcp-server' } } } });
  hub.children.configure({ wakeBudgetMs: 2_000, backoffBaseMs: 100, backoffMaxMs: 200 });
  for (const revision of REVISIONS) {
    const answer = await rawRequest(`${url}/broken/mcp`, revision, 'tools/call', { name: 'echo', arguments: {} });
    t.notOk(answer.result, `${revision}: no result`);
    t.match(answer.error?.message, /server "broken".*ENOENT/, `${revision}: the server and the cause, not "Unknown tool"`);
  }
});

t.test("8: /<name>/mcp states the child's own identity and instructions, also while it sleeps", async (t) => {
  const directory = await tempDir(t);
  const startsFile = join(directory, 'starts');
  const config = { mcpServers: { crashy: fixtureEntry('crashy', startsFile) } };
  const expected = { name: 'crashy', title: 'Fixture crashy', version: '1.0.0' };
  const first = await startTestHub(t, { config });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${first.url}/crashy/mcp`, revision);
    t.same(client.getServerVersion(), expected, `${revision}: the child's name, title and version`);
    t.equal(client.getInstructions(), 'Instructions of crashy.', `${revision}: the child's instructions`);
  }
  await first.app.close();
  const second = await startTestHub(t, { config, dataPath: first.dataPath });
  const client = await connectClient(t, `${second.url}/crashy/mcp`, '2026-07-28');
  t.same(client.getServerVersion(), expected, 'after a restart, from the snapshot');
  t.equal(second.hub.children.get('crashy')?.status, 'sleeping', 'without waking the server');
});

t.test('9: the plain road fails with the words of the SDK road', async (t) => {
  const sink = await startHttpSink(t, { rewrite: rewritingResults((result) => ({ ...result, content: 'not a list' })) });
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: { type: 'http', url: sink.url } } } });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const plain = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } });
  const sdk = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } }, { onprogress: () => undefined });
  t.equal(plain.isError, true, 'an invalid result is a tool error');
  t.match((plain.content as Array<{ text: string }>)[0]?.text, /^Tool call failed: server "sink": Invalid result for tools\/call/, "in the SDK's words");
  t.same(plain.content, sdk.content, 'the same text on both roads');
});
