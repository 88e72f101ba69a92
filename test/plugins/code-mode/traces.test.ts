import { randomBytes } from 'node:crypto';
import t from 'tap';
import type { Hub } from '../../../core/hub.js';
import { createOrders, createPeople } from '../../fixtures/servers/directory.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { startOtlpReceiver, type ReceivedSpan } from '../observability/otlp-receiver.js';
import { textOf } from './helpers.js';

t.test("a program's tool calls are spans under run_code's span, in the caller's trace", async (t) => {
  const receiver = await startOtlpReceiver(t);
  const { app, url, hub } = await startTestHub(t, {
    kernel: (kernel: Hub) => {
      kernel.children.addInProcess('people', createPeople);
      kernel.children.addInProcess('orders-db', createOrders);
    },
    config: { plugins: { 'map-tools': false, 'code-mode': true } },
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
  });
  await hub.children.get('people')?.ensureUp();
  const callers = new Map<string, { traceId: string; spanId: string }>();
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    const ids = { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') };
    const result = await client.callTool({
      name: 'run_code',
      arguments: { code: "await servers.people.list_people();\nawait servers['orders-db']['orders-for']({ personId: 1 });\nreturn 'done';" },
      _meta: { traceparent: `00-${ids.traceId}-${ids.spanId}-01` },
    });
    t.notOk(result.isError, `${revision}: the program ran (${textOf(result)})`);
    callers.set(revision, ids);
  }
  // Closing the hub flushes the spans it still holds.
  await app.close();
  for (const [revision, ids] of callers) {
    const spans = receiver.spans.filter((span) => span.traceId === ids.traceId);
    const run = spans.find((span) => span.parentSpanId === ids.spanId);
    t.equal(run?.name, 'tools/call run_code', `${revision}: run_code's span continues the caller's`);
    const under = (parent: ReceivedSpan | undefined): ReceivedSpan[] => (parent ? spans.filter((span) => span.parentSpanId === parent.spanId) : []);
    const descendants = (parent: ReceivedSpan | undefined): ReceivedSpan[] => under(parent).flatMap((child) => [child, ...descendants(child)]);
    const calls = descendants(run).filter((span) => span.attributes['mcp.method.name'] === 'tools/call');
    t.same(calls.map((span) => span.attributes['gen_ai.tool.name']).sort(), ['list_people', 'orders-for'], `${revision}: both calls the program made are under run_code's span`);
    t.notOk(
      spans.some((span) => span !== run && span.parentSpanId === ids.spanId),
      `${revision}: no call of the program is a sibling of run_code's span`,
    );
  }
});
