import { randomBytes } from 'node:crypto';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { echoMetaEntry } from './helpers.js';
import { attribute, startOtlpReceiver } from './otlp-receiver.js';

const newTraceparent = () => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') });
const header = (ids: { traceId: string; spanId: string }) => `00-${ids.traceId}-${ids.spanId}-01`;

/** The `_meta` the child received, as its `echo_meta` tool told it. */
function receivedMeta(result: unknown): Record<string, unknown> {
  const [block] = (result as CallToolResult).content;
  return block?.type === 'text' ? (JSON.parse(block.text) as Record<string, unknown>) : {};
}

const callEchoMeta = (client: Client, meta: Record<string, unknown>) => client.callTool({ name: 'echo_meta', arguments: {}, _meta: meta });
const callThroughHub = (client: Client, meta: Record<string, unknown>) => client.callTool({ name: 'call_tool', arguments: { server: 'meta', tool: 'echo_meta', arguments: {} }, _meta: meta });

t.test("a caller's traceparent reaches the child and the exported spans form one trace", async (t) => {
  const receiver = await startOtlpReceiver(t);
  const { app, url, hub } = await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'hub-under-test' } });
  const callers = new Map<string, { traceId: string; spanId: string }>();
  for (const revision of REVISIONS) {
    const caller = newTraceparent();
    callers.set(`direct ${revision}`, caller);
    const client = await connectClient(t, `${url}/meta/mcp`, revision);
    // Asleep, so that the call wakes it.
    await hub.children.get('meta')?.sleep();
    const meta = receivedMeta(await callEchoMeta(client, { traceparent: header(caller), tracestate: 'caller=1' }));
    t.match(meta.traceparent, new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`), `${revision}: the child is in the caller's trace`);
    t.not(meta.traceparent, header(caller), `${revision}: the child's parent is the hub's span, not the caller's`);
    t.equal(meta.tracestate, 'caller=1', `${revision}: the trace state travels on`);

    const viaHub = newTraceparent();
    callers.set(`hub ${revision}`, viaHub);
    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const fromHub = receivedMeta(await callThroughHub(hubClient, { traceparent: header(viaHub) }));
    t.match(fromHub.traceparent, new RegExp(`^00-${viaHub.traceId}-[0-9a-f]{16}-01$`), `${revision}: through call_tool too`);
  }
  const untraced = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  t.match(receivedMeta(await callEchoMeta(untraced, {})).traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/, 'a call without a trace context starts one, which the child gets');

  // Closing the hub flushes the spans it still holds.
  await app.close();
  t.ok(receiver.contentTypes.every((type) => type.startsWith('application/json')), 'OTLP/HTTP JSON');
  for (const [road, caller] of callers) {
    const spans = receiver.spans.filter((span) => span.traceId === caller.traceId);
    const ids = new Set(spans.map((span) => span.spanId));
    t.ok(spans.length >= 3, `${road}: the request, the call and the request to the child are exported`);
    t.same(
      spans.filter((span) => span.parentSpanId === caller.spanId).map((span) => attribute(span, 'mcp.method')),
      ['tools/call'],
      `${road}: one span continues the caller's span, the MCP request`,
    );
    t.ok(
      spans.every((span) => span.parentSpanId === caller.spanId || ids.has(span.parentSpanId ?? '')),
      `${road}: every other span hangs under a span of the same trace`,
    );
    const call = spans.find((span) => attribute(span, 'mcp.tool') === 'echo_meta' && attribute(span, 'mcp.method') === 'tools/call');
    t.equal(attribute(call ?? spans[0]!, 'mcp.server'), 'meta', `${road}: the call names its server`);
    t.equal(attribute(call ?? spans[0]!, 'mcp.outcome'), 'ok', `${road}: and its outcome`);
  }
  const first = receiver.spans.filter((span) => span.traceId === callers.get('direct 2026-07-28')?.traceId);
  t.ok(first.some((span) => span.name === 'wake meta'), 'a call that woke the server has a wake span');
  t.ok(first.some((span) => span.kind === 3), 'the request to the child is a client span');
});

t.test('without OTEL_EXPORTER_OTLP_ENDPOINT nothing is traced, and the caller\'s context still reaches the child', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } } });
  const caller = header(newTraceparent());
  const direct = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  t.equal(receivedMeta(await callEchoMeta(direct, { traceparent: caller })).traceparent, caller, 'per-server endpoint: unchanged');
  const hubClient = await connectClient(t, `${url}/hub`, '2025-11-25');
  t.equal(receivedMeta(await callThroughHub(hubClient, { traceparent: caller, tracestate: 'a=b' })).traceparent, caller, 'call_tool: passed on');
});

t.test('the access record of a traced request names the trace the tracer started for it', async (t) => {
  const receiver = await startOtlpReceiver(t);
  const logs: string[] = [];
  const { url } = await startTestHub(t, { logs, config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  const client = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  const started = /^00-([0-9a-f]{32})-/.exec(String(receivedMeta(await callEchoMeta(client, {})).traceparent))?.[1];
  t.ok(started, 'the child got the trace the hub started');
  const records = logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((record) => record.msg === 'request' && record.tool === 'echo_meta');
  t.same(records.map((record) => record.traceId), [started], "the call's one record carries its trace id");
});

t.test('an invalid traceparent is dropped with its tracestate; a tracestate that does not parse is dropped alone', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } } });
  const valid = header(newTraceparent());
  const injected = 'vendor=1\r\nX-Injected: yes';
  const direct = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  const hubClient = await connectClient(t, `${url}/hub`, '2025-11-25');
  for (const [road, call] of [['per-server endpoint', (meta: Record<string, unknown>) => callEchoMeta(direct, meta)], ['call_tool', (meta: Record<string, unknown>) => callThroughHub(hubClient, meta)]] as const) {
    for (const traceparent of ['not-a-traceparent', `00-${'0'.repeat(32)}-${'1'.repeat(16)}-01`, `ff-${'a'.repeat(32)}-${'b'.repeat(16)}-01`, `${valid}\r\nX-Injected: yes`]) {
      const meta = receivedMeta(await call({ traceparent, tracestate: injected, other: 'kept' }));
      t.equal(meta.traceparent, undefined, `${road}: ${JSON.stringify(traceparent)} is dropped`);
      t.equal(meta.tracestate, undefined, `${road}: and its tracestate with it`);
    }
    const kept = receivedMeta(await call({ traceparent: valid, tracestate: injected }));
    t.same([kept.traceparent, kept.tracestate], [valid, undefined], `${road}: a valid traceparent stays, a tracestate with a line break goes`);
    const both = receivedMeta(await call({ traceparent: valid, tracestate: 'rojo=00f067aa0ba902b7, congo@t61=t61rcWkgMzE' }));
    t.same([both.traceparent, both.tracestate], [valid, 'rojo=00f067aa0ba902b7, congo@t61=t61rcWkgMzE'], `${road}: a valid pair is passed on as it is`);
  }
  t.equal(receivedMeta(await callEchoMeta(direct, { traceparent: 'bad', other: 'kept' })).other, 'kept', 'the rest of _meta is untouched');
});
