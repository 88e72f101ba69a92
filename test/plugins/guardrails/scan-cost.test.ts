import { performance } from 'node:perf_hooks';
import t from 'tap';
import type { Hub } from '../../../core/hub.js';
import { createPeople } from '../../fixtures/servers/directory.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

const CALLS = 100;
const secretlintMarks = () => performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith('@core>')).length;

t.test('scanning leaves nothing behind in the process: each call costs what the first did', async (t) => {
  const { url, hub } = await startTestHub(t, {
    kernel: (kernel: Hub) => kernel.children.addInProcess('people', createPeople),
    config: { plugins: { 'map-tools': false, 'guard-secrets': true } },
  });
  await hub.children.get('people')?.ensureUp();
  const client = await connectClient(t, `${url}/people/mcp`, '2026-07-28');
  const before = secretlintMarks();
  for (let call = 0; call < CALLS; call++) {
    const result = await client.callTool({ name: 'list_people', arguments: {} });
    if (result.isError) t.fail(`call ${call} failed`);
  }
  // A performance observer hears marks after the turn that made them.
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(secretlintMarks() - before, 0, `${CALLS} calls, each scanned twice, left no mark in the performance timeline`);
  const { secretLintProfiler } = await import('@secretlint/profiler');
  t.equal((await secretLintProfiler.getEntries()).length, 0, "and nothing in secretlint's profiler, which searched all it kept on every mark");
});
