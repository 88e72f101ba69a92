import { randomBytes } from 'node:crypto';
import t from 'tap';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { echoMetaEntry, everythingEntry } from './helpers.js';
import { startOtlpReceiver } from './otlp-receiver.js';

const SECRET_ARGUMENT = 'private-words-in-an-argument';

const records = (logs: string[]) => logs.map((line) => JSON.parse(line) as Record<string, unknown>);
/** The access records of tool calls. */
const callRecords = (logs: string[]) => records(logs).filter((record) => record.msg === 'request' && record.rpc === 'tools/call');
/** The call log's own lines. */
const callLines = (logs: string[]) => records(logs).filter((record) => record.msg === 'tool call');

async function loggedHub(t: Parameters<typeof startTestHub>[0], observability: Record<string, unknown> = {}) {
  const logs: string[] = [];
  const { url, hub } = await startTestHub(t, {
    logs,
    config: { mcpServers: { everything: everythingEntry() }, plugins: { 'oauth-as': true, 'map-tools': false, observability } },
    env: { HUB_PASSWORD: 'pw' },
  });
  const minted = await new ApiTokens(collections(hub.store), hub.settings.baseUrl).mint('audited', 600);
  return { url, logs, minted, headers: { authorization: `Bearer ${minted.token}` } };
}

t.test('a tool call over HTTP has one line, its access record, which says how it ended, and no secret', async (t) => {
  const { url, logs, minted, headers } = await loggedHub(t);
  const direct = await connectClient(t, `${url}/everything/mcp`, '2026-07-28', headers);
  await direct.callTool({ name: 'echo', arguments: { message: SECRET_ARGUMENT } });
  const legacy = await connectClient(t, `${url}/hub`, '2025-11-25', headers);
  await legacy.callTool({ name: 'call_tool', arguments: { server: 'everything', tool: 'echo', arguments: { message: SECRET_ARGUMENT } } });
  await legacy.callTool({ name: 'call_tool', arguments: { server: 'everything', tool: 'echo', arguments: { message: 7 } } });

  const calls = callRecords(logs);
  t.equal(calls.length, 3, 'one record per call');
  t.equal(callLines(logs).length, 0, 'and no second line from the call log');
  const [first, second, third] = calls;
  t.match(first, {
    method: 'POST',
    path: '/everything/mcp',
    endpoint: 'everything',
    server: 'everything',
    tool: 'echo',
    client: `api-token:${minted.id}`,
    revision: '2026-07-28',
    status: 200,
    outcome: 'ok',
  });
  t.match(second, { path: '/hub', endpoint: 'hub', server: 'everything', tool: 'echo', client: `api-token:${minted.id}`, revision: '2025-11-25', status: 200, outcome: 'ok' });
  t.type(first?.durationMs, 'number', 'the duration is logged');
  t.not(third?.outcome, 'ok', 'a failed call says how it failed');
  const all = logs.join('\n');
  t.notOk(all.includes(SECRET_ARGUMENT), 'no argument (nor the result echoing it) is anywhere in the log');
  t.notOk(all.includes(minted.token), 'the bearer token is not in the log');
  t.notOk(all.includes(minted.token.split('.')[2] ?? minted.token), 'not even its signature');
});

t.test('arguments and results are logged only for the servers the operator names', async (t) => {
  const { url, logs, headers } = await loggedHub(t, { callLogPayloads: ['everything'] });
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28', headers);
  await client.callTool({ name: 'echo', arguments: { message: 'logged on purpose' } });
  const [line] = callLines(logs);
  t.match(line, { server: 'everything', tool: 'echo', outcome: 'ok', revision: '2026-07-28' });
  t.same(line?.arguments, { message: 'logged on purpose' }, 'the arguments');
  t.match(JSON.stringify(line?.result), /logged on purpose/, 'the result');
  t.equal(callRecords(logs).length, 1, 'beside the access record');
});

t.test('callLog: false says nothing of how calls ended', async (t) => {
  const { url, logs, headers } = await loggedHub(t, { callLog: false });
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28', headers);
  await client.callTool({ name: 'echo', arguments: { message: 'quiet' } });
  t.equal(callLines(logs).length, 0);
  const [record] = callRecords(logs);
  t.match(record, { tool: 'echo', status: 200 }, "the access record is the kernel's");
  t.notOk('outcome' in (record ?? {}), 'without an outcome');
});

t.test('the call log carries the trace and span ids of the call', async (t) => {
  const receiver = await startOtlpReceiver(t);
  const logs: string[] = [];
  const { app, url } = await startTestHub(t, { logs, config: { mcpServers: { meta: echoMetaEntry() }, plugins: { 'map-tools': false } }, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
  const traceId = randomBytes(16).toString('hex');
  const client = await connectClient(t, `${url}/meta/mcp`, '2026-07-28');
  await client.callTool({ name: 'echo_meta', arguments: {}, _meta: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
  const hubClient = await connectClient(t, `${url}/hub`, '2025-11-25');
  await hubClient.callTool({ name: 'list_servers', arguments: {} });
  await app.close();
  const [call, hubCall] = callRecords(logs);
  t.equal(call?.traceId, traceId, "the caller's trace");
  const span = receiver.spans.find((exported) => exported.spanId === call?.spanId);
  t.match(span, { traceId, name: 'tools/call echo_meta', kind: 2 }, "the span is the hub's server span of the call");
  t.match(hubCall, { endpoint: 'hub', tool: 'list_servers', outcome: 'ok' }, "a call of /hub's own tool is logged too");
  t.ok(
    receiver.spans.some((exported) => exported.spanId === hubCall?.spanId && exported.traceId === hubCall.traceId),
    'with its own span',
  );
});

t.test('without tracing the call log carries the trace id the caller sent', async (t) => {
  const { url, logs, headers } = await loggedHub(t);
  const traceId = randomBytes(16).toString('hex');
  const client = await connectClient(t, `${url}/everything/mcp`, '2026-07-28', headers);
  await client.callTool({ name: 'echo', arguments: { message: 'traced' }, _meta: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
  const [line] = callRecords(logs);
  t.equal(line?.traceId, traceId);
  t.notOk('spanId' in (line ?? {}), 'no span of its own: the hub does not trace');
});
