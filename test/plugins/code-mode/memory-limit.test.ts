import t from 'tap';
import { createPeople } from '../../fixtures/servers/directory.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { runProgram, textOf } from './helpers.js';

/*
 * Issue 53: `memoryMb` is a program's memory. A program that exceeds it is stopped with an
 * error naming the limit, while another client's program and plain calls go on, and the
 * hub serves after it; a program that stays under it is not stopped. The time limit is
 * generous, so a loaded machine cannot turn the memory test into a timeout. Without OAuth
 * every connection is one client to the per-client limits, so three runs at once are allowed.
 */
const MEMORY_MB = 8;
const OVER = /^The program failed: The program used more memory than the limit \(memoryMb: 8 MB\)\.$/;

t.test('a program over memoryMb is stopped with a clear error; the hub and other clients are not touched', async (t) => {
  const { url } = await startTestHub(t, {
    kernel: (hub) => hub.children.addInProcess('people', createPeople),
    config: { plugins: { 'map-tools': false, 'code-mode': { memoryMb: MEMORY_MB, timeoutMs: 600_000, maxConcurrentRunsPerClient: 3 } } },
  });
  const greedy = await connectClient(t, `${url}/hub`, '2026-07-28');
  const modest = await connectClient(t, `${url}/hub`, '2025-11-25');
  const plain = await connectClient(t, `${url}/people/mcp`, '2026-07-28');

  const under = await runProgram(modest, 'const kept = new Array(2 * 1024 * 1024 / 8).fill(1.5); return kept.length;');
  t.same((under.structuredContent as { value?: unknown }).value, 262144, 'a program holding a quarter of its limit runs to its end');

  const [over, big, others, call] = await Promise.all([
    runProgram(greedy, 'const all: number[][] = [];\nwhile (true) all.push(new Array(1000).fill(all.length));'),
    runProgram(greedy, `return new ArrayBuffer(${MEMORY_MB * 2} * 1024 * 1024).byteLength;`),
    runProgram(modest, "const { people } = await servers.people.list_people({ city: 'London' }); return people.length;"),
    plain.callTool({ name: 'list_people', arguments: { city: 'London' } }),
  ]);
  t.equal(over.isError, true, 'allocating without end: a tool error');
  t.match(textOf(over), OVER, 'naming memoryMb and its value');
  t.match(textOf(big), OVER, 'one allocation twice the limit: the same');
  t.same((others.structuredContent as { value?: unknown }).value, 2, "another client's program at the same time ran to its end");
  t.equal(call.isError, undefined, "another client's plain call at the same time was answered");

  const live = await fetch(`${url}/livez`);
  t.equal(live.status, 200, 'the hub is alive after it');
  await live.body?.cancel();
  const again = await runProgram(greedy, 'return 40 + 2;');
  t.same((again.structuredContent as { value?: unknown }).value, 42, 'and the caller whose program was stopped runs the next one');
});
