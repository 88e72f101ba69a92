import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { sample } from '../observability/helpers.js';
import { checkRoad, guardrailConfig, viaHub, type Call } from './helpers.js';

/*
 * guard-secrets and output-limit, switched on in `plugins`, on the HTTP roads of a tool
 * call: /<name>/mcp's plain road and SDK road (a progress token sends a call there) and
 * /hub's call_tool, each on both revisions, with a real stdio child that echoes what it
 * was sent and notes every call it heard. hub-stdio: stdio.test.ts.
 */
t.test('the guardrails hold on /<name>/mcp (plain and SDK roads) and /hub, on both revisions', async (t) => {
  const { config, leaked, heard } = await guardrailConfig();
  const { url } = await startTestHub(t, { config });
  for (const revision of REVISIONS) {
    const roads: Record<string, (server: string) => Promise<Call>> = {
      plain: async (server) => {
        const client = await connectClient(t, `${url}/${server}/mcp`, revision);
        return async (tool, args) => await client.callTool({ name: tool, arguments: args });
      },
      sdk: async (server) => {
        const client = await connectClient(t, `${url}/${server}/mcp`, revision);
        return async (tool, args) => await client.callTool({ name: tool, arguments: args }, { onprogress: () => undefined });
      },
      hub: async (server) => viaHub(await connectClient(t, `${url}/hub`, revision), server),
    };
    for (const [road, open] of Object.entries(roads)) await checkRoad(t, `${road} on ${revision}`, open, leaked, heard);
  }
  const metrics = await (await fetch(`${url}/metrics`)).text();
  t.equal(
    sample(metrics, 'hub_interceptor_findings_total', { interceptor: 'guard-secrets', kind: 'github', direction: 'arguments' }),
    12,
    'secrets found are counted by kind and direction (two a road: redacted and blocked)',
  );
  t.equal(sample(metrics, 'hub_interceptor_findings_total', { interceptor: 'guard-secrets', kind: 'github', direction: 'result' }), 6, 'in results too');
  t.equal(sample(metrics, 'hub_interceptor_findings_total', { interceptor: 'output-limit', kind: 'cut', direction: 'result' }), 6, 'cuts are counted');
  t.notMatch(metrics, 'ghp_', 'no secret on /metrics');
});
