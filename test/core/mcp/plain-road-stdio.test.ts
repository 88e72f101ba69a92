import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { fixtureEntry, tempDir, waitFor } from '../children/helpers.js';

// The plain road on a transport that carries whole messages: a stdio child, spoken to in
// either era (the 2025 handshake, or the 2026 revision found by the probe).

// The hub's own request ids on the plain road; the SDK client numbers its requests.
const PLAIN_ID = /^hub-\d+$/;
const NEGOTIATIONS = ['legacy', 'auto'] as const;

interface Seen {
  id?: string | number;
  method?: string;
  requestId?: string | number;
}

async function startKitchenSink(t: { teardown(fn: () => unknown): void }, negotiation: (typeof NEGOTIATIONS)[number], env: Record<string, string> = {}) {
  const directory = await tempDir(t);
  const messages = join(directory, 'messages');
  const entry = fixtureEntry('kitchen-sink', join(directory, 'starts'), { env: { FIXTURE_MESSAGES: messages } });
  const { url } = await startTestHub(t, { config: { mcpServers: { sink: entry }, plugins: { 'lifecycle-stdio': { versionNegotiation: negotiation } } }, env });
  const seen = async (): Promise<Seen[]> =>
    (await readFile(messages, 'utf8').catch(() => ''))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Seen);
  const calls = async () => (await seen()).filter((message) => message.method === 'tools/call');
  return { url, seen, calls };
}

t.test('a plain call to a stdio child takes the plain road and answers as the SDK road does, in either era', async (t) => {
  for (const negotiation of NEGOTIATIONS) {
    const sink = await startKitchenSink(t, negotiation);
    for (const revision of REVISIONS) {
      const client = await connectClient(t, `${sink.url}/sink/mcp`, revision);
      const before = (await sink.calls()).length;
      const plain = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } });
      const withProgress = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 1 } }, { onprogress: () => undefined });
      const [plainCall, sdkCall] = (await sink.calls()).slice(before);
      t.match(String(plainCall?.id), PLAIN_ID, `${negotiation} child, ${revision} caller: the plain call took the plain road`);
      t.notMatch(String(sdkCall?.id), PLAIN_ID, `${negotiation} child, ${revision} caller: a call with a progress token took the SDK road`);
      t.same(plain.content, [{ type: 'text', text: 'done after 1 steps' }], `${negotiation} child, ${revision} caller: the child's result`);
      t.same(plain, withProgress, `${negotiation} child, ${revision} caller: the same result on both roads, identity included`);
      t.equal(plain._meta?.[SERVER_INFO_META_KEY] === undefined, revision === '2025-11-25', `${negotiation} child, ${revision} caller: an identity only on 2026`);

      const refusedPlain = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 'many' } });
      const refusedSdk = await client.callTool({ name: 'slow_with_progress', arguments: { steps: 'many' } }, { onprogress: () => undefined });
      t.equal(refusedPlain.isError, true, `${negotiation} child, ${revision} caller: arguments the child refuses are a tool error`);
      t.same(refusedPlain.content, refusedSdk.content, `${negotiation} child, ${revision} caller: with the same text on both roads`);
    }
  }
});

t.test("on a stdio child's plain road a caller's cancellation and the call timeout reach the child", async (t) => {
  for (const negotiation of NEGOTIATIONS) {
    const sink = await startKitchenSink(t, negotiation, { TOOL_CALL_TIMEOUT_MS: '400' });
    const client = await connectClient(t, `${sink.url}/sink/mcp`, '2026-07-28');
    const abort = new AbortController();
    const call = client.callTool({ name: 'hang', arguments: {} }, { signal: abort.signal });
    await waitFor('the call to reach the child', async () => (await sink.calls()).some((message) => PLAIN_ID.test(String(message.id))));
    const [hung] = (await sink.calls()).filter((message) => PLAIN_ID.test(String(message.id)));
    abort.abort(new Error('the person gave up'));
    await t.rejects(call, /gave up/, `${negotiation} child: the caller stops waiting`);
    const cancelled = async () => (await sink.seen()).filter((message) => message.method === 'notifications/cancelled').map((message) => message.requestId);
    await waitFor('the child to see the cancellation', async () => (await cancelled()).includes(hung?.id));

    const timedOut = await client.callTool({ name: 'hang', arguments: {} });
    t.equal(timedOut.isError, true, `${negotiation} child: a call past the timeout is a tool error`);
    t.equal((timedOut.content as Array<{ text: string }>)[0]?.text, 'Tool call failed: server "sink": Request timed out', "the SDK road's words for a timeout");
    const [, second] = (await sink.calls()).filter((message) => PLAIN_ID.test(String(message.id)));
    t.ok(second, `${negotiation} child: the second call took the plain road too`);
    await waitFor('the child to see the timed-out call end', async () => (await cancelled()).includes(second?.id));
    t.same(await cancelled(), [hung?.id, second?.id], `${negotiation} child: the child saw both calls end, by the ids it was sent`);
  }
});

t.test("on 2025-11-25 a caller's notifications/cancelled, sent apart, ends its plain call and reaches the child", async (t) => {
  const sink = await startKitchenSink(t, 'legacy');
  const revision = '2025-11-25';
  const running = rawRequest(`${sink.url}/sink/mcp`, revision, 'tools/call', { name: 'hang', arguments: {} });
  await waitFor('the call to reach the child', async () => (await sink.calls()).some((message) => PLAIN_ID.test(String(message.id))));
  const [hung] = (await sink.calls()).filter((message) => PLAIN_ID.test(String(message.id)));
  const cancel = await fetch(`${sink.url}/sink/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': revision },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'gave up' } }),
  });
  t.equal(cancel.status, 202, 'the cancellation is accepted');
  const answer = await running;
  t.equal(answer.status, 200, 'the call is answered on its own request');
  t.equal(answer.result?.isError, true, 'with a tool error');
  t.same(answer.result?.content, [{ type: 'text', text: 'Tool call failed: server "sink": HubError: the caller cancelled the request' }], 'that says the caller cancelled it');
  const cancelled = async () => (await sink.seen()).filter((message) => message.method === 'notifications/cancelled').map((message) => message.requestId);
  await waitFor('the child to see the cancellation', async () => (await cancelled()).includes(hung?.id));
  t.same(await cancelled(), [hung?.id], 'the child saw its call cancelled, by the id it was sent');
});
