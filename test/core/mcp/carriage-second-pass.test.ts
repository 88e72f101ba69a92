import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { conformanceStdioEntry, startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { startOAuthHub } from '../../plugins/oauth-as/oauth-hub.js';
import { fixtureEntry, starts, tempDir, waitFor } from '../children/helpers.js';

// Issue 28's defects of the per-server endpoint, each as a child other than the project's
// own fixture shows it: carriage fidelity, second pass.

const era = (revision: string) => (revision === '2025-11-25' ? 'legacy' : 'modern');
const COMPLETION = { ref: { type: 'ref/resource' as const, uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '1' } };

t.test("1: a caller sees what the child shows a client of the caller's revision, and a method the child answers is carried", async (t) => {
  const direct = await startConformanceFixture(t, 'two-faced');
  const { url, dataPath, hub } = await startTestHub(t, {
    config: {
      mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry('two-faced') },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  for (const revision of REVISIONS) {
    const child = await connectClient(t, direct, revision);
    t.equal(child.getServerVersion()?.name, `conformance-fixture-${era(revision)}`, `${revision}: directly, the child's face on the revision`);
    t.equal(child.getServerCapabilities()?.completions !== undefined, revision === '2025-11-25', `${revision}: directly, completions declared only on 2025-11-25`);
    for (const name of ['over-http', 'over-stdio']) {
      const client = await connectClient(t, `${url}/${name}/mcp`, revision);
      t.same(client.getServerVersion(), child.getServerVersion(), `${name} on ${revision}: the identity the child states on this revision`);
      t.equal(client.getInstructions(), child.getInstructions(), `${name} on ${revision}: its instructions on this revision`);
      t.equal(client.getServerCapabilities()?.completions !== undefined, revision === '2025-11-25', `${name} on ${revision}: completions as the child declares them here`);
      const completed = await client.complete(COMPLETION);
      t.same(completed.completion.values, ['123'], `${name} on ${revision}: completion/complete reaches the child, declared or not`);
    }
  }
  await hub.children.snapshots?.flush();
  const snapshot = JSON.parse(readFileSync(join(dataPath, 'snapshots', 'over-stdio.json'), 'utf8')) as {
    serverInfo?: { name?: string };
    faces?: Record<string, { serverInfo?: { name?: string } } | null>;
  };
  t.equal(snapshot.serverInfo?.name, 'conformance-fixture-modern', 'the snapshot keeps the face of the revision spoken');
  t.equal(snapshot.faces?.['2025-11-25']?.serverInfo?.name, 'conformance-fixture-legacy', 'and the face the child showed a 2025-11-25 client');
});

t.test('1: a child spoken to on one revision only is presented on the other with its own face, narrowed', async (t) => {
  // lifecycle-stdio's default: the 2025 handshake, no probe, so the hub never learns another face.
  const { url } = await startTestHub(t, { config: { mcpServers: { legacy: conformanceStdioEntry('two-faced') } } });
  const client = await connectClient(t, `${url}/legacy/mcp`, '2026-07-28');
  t.equal(client.getServerVersion()?.name, 'conformance-fixture-legacy', 'the face the hub knows');
  t.ok(client.getServerCapabilities()?.completions, 'with its capabilities');
  t.notOk(client.getServerCapabilities()?.logging, 'narrowed to what the hub carries');
  t.same((await client.complete(COMPLETION)).completion.values, ['123']);
});

t.test("1: the endpoint refuses only what the caller's revision cannot carry; any other method gets the child's own answer and HTTP status", async (t) => {
  const direct = await startConformanceFixture(t);
  const { url } = await startTestHub(t, {
    config: {
      mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry() },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  for (const revision of REVISIONS) {
    const directly = await rawRequest(direct, revision, 'unknown/method');
    t.equal(directly.error?.code, -32601, `${revision}: directly, the child has no such method`);
    for (const child of ['over-http', 'over-stdio']) {
      const proxied = await rawRequest(`${url}/${child}/mcp`, revision, 'unknown/method');
      t.equal(proxied.status, directly.status, `${child} on ${revision}: the same HTTP status (${directly.status})`);
      t.same(proxied.error, directly.error, `${child} on ${revision}: the child's own error`);
    }
  }
  // The hub keeps a 2025-11-25 caller's log level itself (log-level-2025.test); the child is never asked.
  t.same((await rawRequest(`${url}/over-stdio/mcp`, '2025-11-25', 'logging/setLevel', { level: 'info' })).result, {}, 'logging/setLevel: answered by the hub');
  for (const [method, params] of [
    ['resources/subscribe', { uri: 'test://watched-resource' }],
    ['resources/unsubscribe', { uri: 'test://watched-resource' }],
  ] as const) {
    t.same((await rawRequest(direct, '2025-11-25', method, params)).result, {}, `${method}: the child answers it`);
    const proxied = await rawRequest(`${url}/over-stdio/mcp`, '2025-11-25', method, params);
    t.equal(proxied.error?.code, -32601, `${method}: a stateless 2025-11-25 endpoint cannot carry it`);
  }
});

t.test('2: the hub advertises no capability the child did not declare', async (t) => {
  const direct = await startConformanceFixture(t, 'minimal');
  const { url } = await startTestHub(t, { config: { mcpServers: { minimal: { type: 'http', url: direct } } } });
  for (const revision of REVISIONS) {
    const child = await connectClient(t, direct, revision);
    t.same(child.getServerCapabilities(), { tools: {}, resources: {}, prompts: {} }, `${revision}: what the child declares`);
    const client = await connectClient(t, `${url}/minimal/mcp`, revision);
    t.same(client.getServerCapabilities(), child.getServerCapabilities(), `${revision}: exactly that through the hub`);
  }
});

t.test('3: list changes reach a 2026-07-28 listen stream from http, sse, tcp and stdio children', async (t) => {
  const env = { TICK_MS: '200' };
  const [http, sse, tcp] = await Promise.all([
    startConformanceFixture(t, 'ticking', 'http', env),
    startConformanceFixture(t, 'ticking', 'sse', env),
    startConformanceFixture(t, 'ticking', 'tcp', env),
  ]);
  const port = Number(new URL(tcp).port);
  const probing = await startTestHub(t, {
    config: {
      mcpServers: { http: { type: 'http', url: http }, sse: { type: 'sse', url: sse }, tcp: { type: 'tcp', port }, stdio: conformanceStdioEntry('ticking', env) },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  const legacy = await startTestHub(t, { config: { mcpServers: { 'stdio-legacy': conformanceStdioEntry('ticking', env) } } });
  const children: Array<[string, string]> = [...['http', 'sse', 'tcp', 'stdio'].map((name): [string, string] => [name, probing.url]), ['stdio-legacy', legacy.url]];
  for (const [name, url] of children) {
    const client = await connectClient(t, `${url}/${name}/mcp`, '2026-07-28');
    const heard = new Set<string>();
    client.setNotificationHandler('notifications/tools/list_changed', async () => void heard.add('tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', async () => void heard.add('prompts'));
    client.setNotificationHandler('notifications/resources/list_changed', async () => void heard.add('resources'));
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
    t.same(subscription.honoredFilter, { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, `${name}: the stream asks for all three`);
    await waitFor(`${name}: the three list changes on the stream`, () => heard.size === 3);
    t.same([...heard].sort(), ['prompts', 'resources', 'tools'], `${name}: tools, prompts and resources list changes arrive`);
    await subscription.close();
  }
});

t.test("4: on 2025-11-25 a caller's notifications/cancelled reaches the child's call, and only the caller's", async (t) => {
  const directory = await tempDir(t);
  const messages = join(directory, 'messages');
  const { url, hub } = await startOAuthHub(t, {
    config: {
      mcpServers: {
        sink: fixtureEntry('kitchen-sink', join(directory, 'sink-starts'), { env: { FIXTURE_MESSAGES: messages } }),
        slow: fixtureEntry('slow-start', join(directory, 'slow-starts'), { env: { START_DELAY_MS: '0' } }),
      },
    },
  });
  const tokens = new ApiTokens(collections(hub.store), url);
  const [alice, mallory] = await Promise.all([tokens.mint('alice', 3600), tokens.mint('mallory', 3600)]);
  const as = (minted: { token: string }) => ({ headers: { authorization: `Bearer ${minted.token}` } });
  const cancel = (endpoint: string, token: string, requestId: number) =>
    fetch(`${url}/${endpoint}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'gave up' } }),
    });
  const seen = () =>
    existsSync(messages)
      ? readFileSync(messages, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { method?: string })
      : [];

  // A real client: its cancellation is a request of its own, while its call's request stays open.
  const client = await connectClient(t, `${url}/sink/mcp`, '2025-11-25', as(alice).headers);
  const abort = new AbortController();
  const call = client.callTool({ name: 'hang', arguments: {} }, { signal: abort.signal });
  await waitFor('the child to run the call', () => seen().some((message) => message.method === 'tools/call'));
  abort.abort(new Error('the person gave up'));
  await t.rejects(call, /gave up/);
  await waitFor('the child to hear the cancellation', () => seen().some((message) => message.method === 'notifications/cancelled'));
  t.pass('the cancellation reached the child while the call was still open');

  // Another client naming the same request id cancels nothing.
  const held = join(directory, 'release');
  const running = rawRequest(`${url}/slow/mcp`, '2025-11-25', 'tools/call', { name: 'hold', arguments: { path: held } }, { headers: as(alice).headers });
  await waitFor('the call to be held', () => existsSync(`${held}.held`));
  t.equal((await cancel('slow', mallory.token, 1)).status, 202, "mallory's cancellation of request 1 is accepted, as any notification");
  await writeFile(held, '');
  const answer = await running;
  t.same(answer.result?.content, [{ type: 'text', text: 'released' }], "alice's call ran to its end");
  t.notOk(answer.result?.isError, 'not cut by a cancellation');
});

t.test("5: a tool the child does not list gets the child's own answer while it is up, the hub's only when it cannot ask", async (t) => {
  const directory = await tempDir(t);
  const startsFile = join(directory, 'starts');
  const { url, hub } = await startTestHub(t, { config: { mcpServers: { sink: fixtureEntry('kitchen-sink', startsFile) } } });
  const child = hub.children.get('sink');
  if (!child) throw new Error('no child');
  await child.ensureUp();
  for (const revision of REVISIONS) {
    for (const meta of [undefined, { progressToken: 'sdk-road' }]) {
      const road = meta ? 'the SDK road' : 'the plain road';
      const answer = await rawRequest(`${url}/sink/mcp`, revision, 'tools/call', { name: 'no_such_tool', arguments: {} }, meta ? { meta } : {});
      t.match(answer.error, { code: -32602, message: /Tool no_such_tool not found/ }, `${revision}, ${road}: the child's own answer`);
    }
  }
  await child.sleep();
  const asleep = await rawRequest(`${url}/sink/mcp`, '2026-07-28', 'tools/call', { name: 'no_such_tool', arguments: {} });
  t.match(asleep.error, { code: -32602, message: 'Unknown tool: no_such_tool' }, "asleep, the hub's own answer");
  t.equal(child.status, 'sleeping', 'without waking the child');
  t.equal(starts(startsFile).length, 1, 'no process was started for it');
});
