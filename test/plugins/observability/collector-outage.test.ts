import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startHubBin } from '../../helpers/hub-bin.js';
import { echoMetaEntry } from './helpers.js';
import { unreachableCollector } from './otlp-receiver.js';

/**
 * Issue 27, defect 3: with OTEL_EXPORTER_OTLP_ENDPOINT pointing at nothing, SIGTERM took
 * 8.8 s and the hub exited 1 (`shutdown failed: connect ECONNREFUSED`), and nothing was
 * logged while the collector was out of reach. The real `hub` process: the outage is
 * logged (once), and SIGTERM ends it with exit code 0. How long the shutdown may wait is
 * the flush budget's (export-guard.test.ts), not a clock's here.
 */
t.test('SIGTERM with an unreachable collector exits 0, and the outage is logged once', async (t) => {
  const collector = await unreachableCollector();
  const hub = await startHubBin(t, {
    config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { meta: echoMetaEntry() } },
    // Batches go out at once, so the outage shows before the shutdown.
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector, OTEL_BSP_SCHEDULE_DELAY: '10', LOG_LEVEL: 'info' },
  });
  const client = await connectClient(t, `${hub.url}/meta/mcp`, '2026-07-28');
  for (let call = 0; call < 5; call += 1) await client.callTool({ name: 'echo_meta', arguments: {} });
  const outage = await hub.waitForLog('the outage to be logged', (line) => typeof line.msg === 'string' && line.msg.startsWith('tracing: spans cannot reach the collector'));
  t.match(outage, { collector: `${collector}/v1/traces`, err: /ECONNREFUSED|connect/ }, 'the log says which collector and why');
  for (let call = 0; call < 5; call += 1) await client.callTool({ name: 'echo_meta', arguments: {} });
  await client.close();

  hub.signal('SIGTERM');
  t.equal(await hub.exited, 0, 'exit code 0: a collector outage is not a failed shutdown');
  const lines = hub.logs();
  t.equal(lines.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('tracing: spans cannot reach the collector')).length, 1, 'the outage is logged once');
  t.notOk(
    lines.some((line) => line.msg === 'shutdown failed'),
    'no failed shutdown',
  );
  t.notMatch(hub.stderr(), /ECONNREFUSED/, 'nothing about it on stderr');
});
