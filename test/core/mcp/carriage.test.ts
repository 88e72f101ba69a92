import type { PluginHub } from '../../../core/plugin-hub.js';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { rawRequest } from '../../helpers/raw.js';
import { createKitchenSink, kitchenSinkObserved } from '../../fixtures/servers/kitchen-sink.js';
import { fixtureEntry, starts, waitFor } from '../children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { ManualClock } from '../../helpers/clock.js';

const setup = (hub: PluginHub) => void hub.servers.addInProcess('sink', createKitchenSink, { denyTools: ['hidden_by_filter'] });

for (const revision of REVISIONS) {
  t.test(`/<name>/mcp on ${revision}`, async (t) => {
    const { url } = await startTestHub(t, { setup });
    const client = await connectClient(t, `${url}/sink/mcp`, revision);
    t.equal(client.getNegotiatedProtocolVersion(), revision, 'the client chose the revision');

    const { tools } = await client.listTools();
    t.same(tools.map((tool) => tool.name).sort(), ['confirm_deploy', 'hang', 'list_colours', 'slow_with_progress', 'wrapped_colours'], 'a denied tool is absent');

    const colours = tools.find((tool) => tool.name === 'list_colours');
    const colourResult = await client.callTool({ name: 'list_colours', arguments: {} });
    if (revision === '2025-11-25') {
      t.same(colours?.outputSchema, { type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'] }, 'a non-object schema is wrapped');
      t.same(colourResult.structuredContent, { result: ['red', 'green'] }, 'and so is its value');
    } else {
      t.same(colours?.outputSchema, { type: 'array', items: { type: 'string' } }, 'any JSON value is allowed here');
      t.same(colourResult.structuredContent, ['red', 'green']);
    }
    const wrapped = await client.callTool({ name: 'wrapped_colours', arguments: {} });
    t.same(wrapped.structuredContent, { result: ['blue'] }, 'a child that wrapped already is left alone');

    await t.rejects(client.callTool({ name: 'hidden_by_filter', arguments: {} }), /Unknown tool: hidden_by_filter/, 'a filtered tool is refused like one that never existed');
    await t.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /Tool no_such_tool not found/, 'a tool the child does not list: its own answer');

    const progress: number[] = [];
    const slow = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 3 } }, { onprogress: (update) => progress.push(update.progress) });
    t.same(slow.content, [{ type: 'text', text: 'done after 3 steps' }]);
    t.same(progress, [1, 2, 3], 'progress is forwarded to the caller');

    const resources = await client.listResources();
    t.same(
      resources.resources.map((resource) => resource.uri),
      ['memo://readme'],
    );
    const read = await client.readResource({ uri: 'memo://readme' });
    t.match(read.contents, [{ text: 'hello from a resource' }]);
    const templates = await client.listResourceTemplates();
    t.same(
      templates.resourceTemplates.map((template) => template.uriTemplate),
      ['memo://notes/{id}'],
    );
    const prompts = await client.listPrompts();
    t.same(
      prompts.prompts.map((prompt) => prompt.name),
      ['greet'],
    );
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    t.match(prompt.messages, [{ content: { text: 'Hello, Ada' } }]);
    const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'memo://notes/{id}' }, argument: { name: 'id', value: 'al' } });
    t.same(completion.completion.values, ['alpha']);

    const setLevel = await rawRequest(`${url}/sink/mcp`, revision, 'logging/setLevel', { level: 'debug' });
    // On 2025-11-25 the hub keeps the caller's level itself (log-level-2025.test); the sink declares no logging, so nothing is heard.
    if (revision === '2025-11-25') t.same(setLevel.result, {}, 'logging/setLevel: a level the hub keeps for the caller');
    else t.equal(setLevel.error?.code, -32601, 'logging/setLevel has no handler (the level travels per request)');
    t.notOk(client.getServerCapabilities()?.logging, 'logging is not advertised');
  });
}

t.test('an unknown server is a 404', async (t) => {
  const { url } = await startTestHub(t, { setup });
  const response = await fetch(`${url}/nobody/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(response.status, 404);
});

t.test('a foreign Host or Origin is refused (DNS rebinding)', async (t) => {
  const { url } = await startTestHub(t, { setup });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const origin = await fetch(`${url}/sink/mcp`, { method: 'POST', headers: { ...headers, origin: 'https://evil.example' }, body });
  t.equal(origin.status, 403);
  const { request } = await import('node:http');
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const outgoing = request(`${url}/sink/mcp`, { method: 'POST', headers: { ...headers, host: 'evil.example' } }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  t.equal(status, 403);
});

t.test("a caller's cancellation reaches the child", async (t) => {
  const { url } = await startTestHub(t, { setup });
  const client = await connectClient(t, `${url}/sink/mcp`, '2026-07-28');
  const before = kitchenSinkObserved.cancellations;
  const entered = kitchenSinkObserved.hangs;
  const abort = new AbortController();
  const call = client.callTool({ name: 'hang', arguments: {} }, { signal: abort.signal });
  await waitFor('the call to reach the child', () => kitchenSinkObserved.hangs > entered);
  abort.abort(new Error('the person gave up'));
  await t.rejects(call, /gave up/, 'the caller stops waiting');
  await waitFor('the child to see the cancellation', () => kitchenSinkObserved.cancellations > before);
  t.equal(kitchenSinkObserved.cancellations, before + 1, 'the child saw the cancellation');
});

t.test('a child that dies mid-call yields a tool error naming the server', async (t) => {
  const starts = join(await mkdtemp(join(tmpdir(), 'carriage-')), 'starts');
  const { url } = await startTestHub(t, { config: { mcpServers: { fragile: fixtureEntry('crashy', starts) } } });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/fragile/mcp`, revision);
    const result = await client.callTool({ name: 'crash', arguments: {} });
    t.equal(result.isError, true, `${revision}: a tool error, not a hung request or an HTTP error`);
    t.match((result.content as Array<{ text: string }>)[0]?.text, /^Tool call failed: server "fragile": /);
  }
});

t.test('a call longer than the idle timeout keeps its server awake until it ends', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'carriage-'));
  const file = join(folder, 'starts');
  const release = join(folder, 'release');
  // The idle timer runs on a clock the test moves: the call outlasts the timeout because
  // the test says so, and is held open by the child until the test releases it.
  const clock = new ManualClock();
  const { url, hub } = await startTestHub(t, {
    config: { mcpServers: { slow: fixtureEntry('slow-start', file, { env: { START_DELAY_MS: '0' } }) } },
    kernel: (created) => {
      created.children.useClock(clock);
      created.children.configure({ idleTimeoutMs: 300_000, pingIntervalMs: 0 });
    },
  });
  const client = await connectClient(t, `${url}/slow/mcp`, '2026-07-28');
  const call = client.callTool({ name: 'hold', arguments: { path: release } });
  await waitFor('the call to reach the child', () => existsSync(`${release}.held`));
  clock.advance(300_000);
  clock.advance(300_000);
  t.equal(hub.children.get('slow')?.status, 'up', 'twice the idle timeout passed during the call');
  await writeFile(release, '');
  t.same((await call).content, [{ type: 'text', text: 'released' }], 'the call completed');
  t.equal(starts(file).length, 1, 'on the process it started, not cut short by an idle sleep');
  clock.advance(300_000);
  await waitFor('the idle sleep once the call ended', () => hub.children.get('slow')?.status === 'sleeping');
});
