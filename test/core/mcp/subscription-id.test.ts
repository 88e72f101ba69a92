import { SubscriptionsAcknowledgedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/core';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';

// Issue 55.7: the subscription id a 2026-07-28 listen stream stamps on its notifications
// (`_meta["io.modelcontextprotocol/subscriptionId"]`, on the acknowledgement and every change)
// follows the revision's schema as the SDK has it: a RequestId (string or integer), "the
// listen request's JSON-RPC ID verbatim". A caller's numeric id comes back a number and a
// string id a string, through the hub as from the child directly; every frame parses with
// the SDK's schema of its notification.
//
// Road x channel covered: /<name>/mcp and /hub on 2026-07-28 x the acknowledgement;
// /<name>/mcp x tools/list_changed.

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'subscription-id-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface Frame {
  method?: string;
  params?: { _meta?: Record<string, unknown> };
}

/** Opens a raw listen with JSON-RPC id `id`, and reads its frames until `enough` says so (then closes it). */
async function listenFrames(url: string, id: string | number, enough: (frames: Frame[]) => boolean, onAcknowledged?: () => Promise<unknown>): Promise<Frame[]> {
  const stop = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: META, notifications: { toolsListChanged: true } } }),
    signal: stop.signal,
  });
  const frames: Frame[] = [];
  const decoder = new TextDecoder();
  let pending = '';
  let triggered = false;
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const data = line.startsWith('data:') ? line.slice(5).trim() : line.trim().startsWith('{') ? line.trim() : '';
        if (data !== '') frames.push(JSON.parse(data) as Frame);
      }
      if (!triggered && frames.length > 0 && onAcknowledged) {
        triggered = true;
        await onAcknowledged();
      }
      if (enough(frames)) break;
    }
  } finally {
    stop.abort();
  }
  return frames;
}

const hasChange = (frames: Frame[]) => frames.some((frame) => frame.method === 'notifications/tools/list_changed');

t.test('the subscription id is the listen request id verbatim, on every frame, directly and through the hub', async (t) => {
  const direct = await startConformanceFixture(t);
  const { url } = await startTestHub(t, { config: { mcpServers: { child: { type: 'http', url: direct } } } });
  const trigger = await connectClient(t, `${url}/child/mcp`, '2026-07-28');
  const roads = [
    { road: 'directly', endpoint: direct },
    { road: '/<name>/mcp', endpoint: `${url}/child/mcp` },
  ];
  for (const { road, endpoint } of roads) {
    for (const id of [7, 'listen-seven']) {
      const frames = await listenFrames(endpoint, id, hasChange, () => trigger.callTool({ name: 'test_trigger_tool_change', arguments: {} }));
      const [ack, ...rest] = frames;
      t.equal(ack?.method, 'notifications/subscriptions/acknowledged', `${road}, id ${JSON.stringify(id)}: the acknowledgement comes first`);
      t.ok(SubscriptionsAcknowledgedNotificationSchema.safeParse(ack).success, `${road}, id ${JSON.stringify(id)}: the acknowledgement parses with the SDK's schema`);
      const change = rest.find((frame) => frame.method === 'notifications/tools/list_changed');
      t.ok(ToolListChangedNotificationSchema.safeParse(change).success, `${road}, id ${JSON.stringify(id)}: the change parses with the SDK's schema`);
      for (const frame of [ack, change]) t.same(frame?.params?._meta?.[SUBSCRIPTION_ID], id, `${road}, id ${JSON.stringify(id)}: ${frame?.method} carries the id verbatim`);
      t.equal(typeof change?.params?._meta?.[SUBSCRIPTION_ID], typeof id, `${road}: a ${typeof id} id stays a ${typeof id}`);
    }
  }
  for (const id of [8, 'hub-eight']) {
    const [ack] = await listenFrames(`${url}/hub`, id, (frames) => frames.length > 0);
    t.ok(SubscriptionsAcknowledgedNotificationSchema.safeParse(ack).success, `/hub, id ${JSON.stringify(id)}: the acknowledgement parses with the SDK's schema`);
    t.same(ack?.params?._meta?.[SUBSCRIPTION_ID], id, `/hub, id ${JSON.stringify(id)}: the acknowledgement carries the id verbatim`);
  }
});
