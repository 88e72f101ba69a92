import { randomBytes } from 'node:crypto';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { echoMetaEntry } from './helpers.js';
import { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

const newIds = () => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') });
const header = (ids: { traceId: string; spanId: string }) => `00-${ids.traceId}-${ids.spanId}-01`;

/** The `_meta` the child received, as its `echo_meta` tool told it. */
function receivedMeta(result: unknown): Record<string, unknown> {
  const [block] = (result as CallToolResult).content;
  return block?.type === 'text' ? (JSON.parse(block.text) as Record<string, unknown>) : {};
}

const callEchoMeta = (client: Client, meta?: Record<string, unknown>) => client.callTool({ name: 'echo_meta', arguments: {}, ...(meta && { _meta: meta }) });
const callThroughHub = (client: Client, meta?: Record<string, unknown>) =>
  client.callTool({ name: 'call_tool', arguments: { server: 'meta', tool: 'echo_meta', arguments: {} }, ...(meta && { _meta: meta }) });
const inTrace = (spans: ReceivedSpan[], traceId: string) => spans.filter((span) => span.traceId === traceId);
/** Attributes the hub used before following OpenTelemetry's conventions, which must be gone. */
const OLD_ATTRIBUTES = ['mcp.server', 'mcp.method', 'mcp.revision', 'mcp.tool', 'mcp.outcome', 'mcp.client_id'];

t.test('spans follow OpenTelemetry MCP conventions on both endpoints and revisions, over OTLP/HTTP protobuf by default', async (t) => {
  const receiver = await startOtlpReceiver(t);
  const { app, url, hub } = await startTestHub(t, {
    config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } },
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'hub-under-test' },
  });
  const callers = new Map<string, { ids: { traceId: string; spanId: string }; childParent: string }>();
  for (const revision of REVISIONS) {
    const direct = await connectClient(t, `${url}/meta/mcp`, revision);
    // Asleep, so that the call wakes it.
    await hub.children.get('meta')?.sleep();
    const ids = newIds();
    const meta = receivedMeta(await callEchoMeta(direct, { traceparent: header(ids), tracestate: 'caller=1' }));
    t.match(meta.traceparent, new RegExp(`^00-${ids.traceId}-[0-9a-f]{16}-01$`), `${revision}: the child is in the caller's trace`);
    t.equal(meta.tracestate, 'caller=1', `${revision}: the trace state travels on`);
    callers.set(`direct ${revision}`, { ids, childParent: String(meta.traceparent).slice(36, 52) });

    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const viaHub = newIds();
    const fromHub = receivedMeta(await callThroughHub(hubClient, { traceparent: header(viaHub) }));
    t.match(fromHub.traceparent, new RegExp(`^00-${viaHub.traceId}-[0-9a-f]{16}-01$`), `${revision}: through call_tool too`);
    callers.set(`hub ${revision}`, { ids: viaHub, childParent: String(fromHub.traceparent).slice(36, 52) });
  }

  // Closing the hub flushes the spans it still holds.
  await app.close();
  t.ok(receiver.contentTypes.length > 0 && receiver.contentTypes.every((type) => type === 'application/x-protobuf'), 'OTLP/HTTP protobuf, the default of the specification');
  t.ok(
    receiver.spans.every((span) => span.service === 'hub-under-test'),
    'the service is named by OTEL_SERVICE_NAME',
  );
  t.notOk(
    receiver.spans.some((span) => OLD_ATTRIBUTES.some((key) => key in span.attributes)),
    'none of the names the conventions do not define',
  );
  for (const [road, { ids, childParent }] of callers) {
    const [revision] = road.split(' ').slice(1);
    const spans = inTrace(receiver.spans, ids.traceId);
    const served = spans.filter((span) => span.parentSpanId === ids.spanId);
    t.equal(served.length, 1, `${road}: one span continues the caller's span`);
    const server = served[0] as ReceivedSpan;
    const tool = road.startsWith('hub') ? 'call_tool' : 'echo_meta';
    t.equal(server.name, `tools/call ${tool}`, `${road}: the server span is named {mcp.method.name} {target}`);
    t.equal(server.kind, SERVER, `${road}: kind SERVER`);
    t.match(
      server.attributes,
      {
        'mcp.method.name': 'tools/call',
        'mcp.protocol.version': revision,
        'gen_ai.tool.name': tool,
        'gen_ai.operation.name': 'execute_tool',
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'client.address': '127.0.0.1',
        'mcp_switchyard.endpoint': road.startsWith('hub') ? 'hub' : 'meta',
      },
      `${road}: the server span's attributes`,
    );
    t.match(server.attributes['jsonrpc.request.id'], /^\d+$/, `${road}: the JSON-RPC id`);
    t.notOk('error.type' in server.attributes, `${road}: no error.type on success`);
    const client = spans.find((span) => span.kind === CLIENT);
    t.ok(client, `${road}: a client span toward the child`);
    t.equal(client?.name, 'tools/call echo_meta', `${road}: named after the child's tool`);
    t.equal(client?.parentSpanId, server.spanId, `${road}: under the server span`);
    t.equal(client?.spanId, childParent, `${road}: the child's parent is the hub's client span`);
    t.match(client?.attributes, {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo_meta',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
      'mcp_switchyard.server': 'meta',
    });
    t.ok(typeof client?.attributes['mcp.protocol.version'] === 'string', `${road}: the revision spoken with the child`);
  }
  for (const revision of REVISIONS) {
    const spans = inTrace(receiver.spans, callers.get(`direct ${revision}`)?.ids.traceId ?? '');
    const server = spans.find((span) => span.kind === SERVER);
    const wake = spans.find((span) => span.name === 'wake meta');
    t.ok(wake, `${revision}: the call that woke the server has a wake span`);
    t.equal(wake?.parentSpanId, server?.spanId, `${revision}: under the request that waited for it`);
    const start = spans.find((span) => span.name === 'start meta');
    t.equal(start?.parentSpanId, wake?.spanId, `${revision}: the start is a child span of the wake`);
    t.equal(start?.attributes['mcp_switchyard.start.outcome'], 'up');
  }
});

t.test('the HTTP traceparent header continues a trace when _meta carries none; _meta wins over it and links it', async (t) => {
  const receiver = await startOtlpReceiver(t);
  const { app, url } = await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  const fromHeader = newIds();
  const client = await connectClient(t, `${url}/meta/mcp`, '2026-07-28', { traceparent: header(fromHeader) });
  const meta = receivedMeta(await callEchoMeta(client));
  t.match(meta.traceparent, new RegExp(`^00-${fromHeader.traceId}-`), 'the child is in the trace the header named');
  const fromMeta = newIds();
  await callEchoMeta(client, { traceparent: header(fromMeta) });
  await app.close();
  const continued = receiver.spans.find((span) => span.kind === SERVER && span.parentSpanId === fromHeader.spanId && span.name === 'tools/call echo_meta');
  t.ok(continued, 'the server span continues the header');
  const both = receiver.spans.find((span) => span.kind === SERVER && span.parentSpanId === fromMeta.spanId);
  t.ok(both, "with both, _meta's context is the parent");
  t.same(both?.links, [{ traceId: fromHeader.traceId, spanId: fromHeader.spanId }], "and the header's is linked");
});

t.test('a 2025 GET probe makes no span; a refused call is an error span with its outcome', async (t) => {
  const receiver = await startOtlpReceiver(t);
  const { app, url, hub } = await startTestHub(t, {
    config: { mcpServers: { meta: { ...echoMetaEntry(), denyTools: ['secret'] } }, plugins: { 'map-tools': false } },
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' },
  });
  // Its tools known and asleep: a name it does not list is the hub's to refuse (an up server is asked, issue 28).
  const meta = hub.children.get('meta');
  await meta?.ensureUp();
  await meta?.sleep();
  const probe = await fetch(`${url}/hub`, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': '2025-11-25' } });
  await probe.text();
  t.equal(probe.status, 405, 'the stream is refused, as a stateless server does');
  const client = await connectClient(t, `${url}/meta/mcp`, '2025-11-25');
  await t.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), 'an unknown tool is refused');
  await t.rejects(client.callTool({ name: 'secret', arguments: {} }), 'a denied tool is refused');
  await app.close();
  t.ok(receiver.contentTypes.length > 0 && receiver.contentTypes.every((type) => type.startsWith('application/json')), 'OTEL_EXPORTER_OTLP_PROTOCOL=http/json is OTLP/HTTP JSON');
  t.notOk(
    receiver.spans.some((span) => span.attributes['http.response.status_code'] === 405 || (span.status.code === ERROR && span.attributes['mcp.method.name'] === undefined)),
    'nothing of the GET probe',
  );
  const refusals = receiver.spans.filter((span) => span.kind === SERVER && span.attributes['mcp.method.name'] === 'tools/call');
  t.same(
    refusals.map((span) => span.name),
    ['tools/call', 'tools/call'],
    'an unlisted tool is not a span name',
  );
  t.same(
    refusals.map((span) => span.attributes['error.type']),
    ['unknown_tool', 'denied'],
    'error.type says why',
  );
  t.ok(
    refusals.every((span) => span.status.code === ERROR),
    'the spans are errors',
  );
  t.same(
    refusals.map((span) => span.attributes['gen_ai.tool.name']),
    ['no_such_tool', 'secret'],
    'the name is an attribute',
  );
  t.notOk(
    receiver.spans.some((span) => span.kind === CLIENT),
    'nothing went to the child',
  );
});

t.test('OTEL_EXPORTER_OTLP_PROTOCOL=grpc exports over OTLP/gRPC', async (t) => {
  const receiver = await startOtlpReceiver(t, 'grpc');
  const { app, url } = await startTestHub(t, {
    config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } },
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
  });
  const ids = newIds();
  const client = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  await callEchoMeta(client, { traceparent: header(ids) });
  await app.close();
  t.ok(receiver.contentTypes.includes('grpc'), 'the gRPC service was called');
  t.ok(
    inTrace(receiver.spans, ids.traceId).some((span) => span.name === 'tools/call echo_meta' && span.kind === SERVER),
    'the call is there',
  );
});

t.test('an OTLP protocol the hub does not know stops the start, naming the variable', async (t) => {
  await t.rejects(startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/xml' } }), {
    message: /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is "http\/xml"/,
  });
});

t.test("without OTEL_EXPORTER_OTLP_ENDPOINT nothing is traced, and the caller's context still reaches the child", async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } } });
  const caller = header(newIds());
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
  t.same(
    records.map((record) => record.traceId),
    [started],
    "the call's one record carries its trace id",
  );
});

t.test('an invalid traceparent is dropped with its tracestate; a tracestate that does not parse is dropped alone', async (t) => {
  const { url } = await startTestHub(t, { config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } } });
  const valid = header(newIds());
  const injected = 'vendor=1\r\nX-Injected: yes';
  const direct = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  const hubClient = await connectClient(t, `${url}/hub`, '2025-11-25');
  for (const [road, call] of [
    ['per-server endpoint', (meta: Record<string, unknown>) => callEchoMeta(direct, meta)],
    ['call_tool', (meta: Record<string, unknown>) => callThroughHub(hubClient, meta)],
  ] as const) {
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
