import type { CallToolResult } from '@modelcontextprotocol/client';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import t from 'tap';
import { createPeople } from '../../fixtures/servers/directory.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { runProgram, textOf } from './helpers.js';

// A program never holds the hub's thread (issue 53.1): while two programs compute, fill
// their memory or exhaust their stack (each until its time limit), /livez and another
// caller's tool call answer, each before either program ends. Order of events only: a
// program tells the test it is under way through a tool call (beacon.started), and the
// test then asks the hub; with the sandbox on the hub's thread every answer waited for
// the programs to be stopped. The time limit is what each program burns of a core: 3 s is
// still many times what the six probes take on a busy machine.

/** A server whose `started` tool tells the test that a program has reached it. */
function beaconServer(onStarted: () => void): () => McpServer {
  return () => {
    const server = new McpServer({ name: 'beacon', version: '1.0.0' });
    server.registerTool('started', { description: 'A program is under way', inputSchema: fromJsonSchema<Record<string, never>>({ type: 'object' }) }, async () => {
      onStarted();
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    return server;
  };
}

const PROGRAMS: [string, string, RegExp][] = [
  ['computes without end', 'await servers.beacon.started();\nwhile (true) {}', /^The program failed: The program ran longer than the time limit \(timeoutMs: 3000 ms\) and was stopped\.$/],
  [
    'allocates to its memory limit, again and again',
    'await servers.beacon.started();\nlet hits = 0;\nfor (;;) { try { const all: number[][] = []; for (;;) all.push(new Array(1000).fill(1)); } catch (error) { if (hits++ === 0) console.log(String(error)); } }',
    /^The program failed: The program ran longer than the time limit \(timeoutMs: 3000 ms\) and was stopped\.\nPrinted before it ended:\nInternalError: out of memory\n$/,
  ],
  [
    'recurses to its stack limit, again and again',
    'await servers.beacon.started();\nfunction down(n: number): number { return down(n + 1) + 1; }\nlet hits = 0;\nfor (;;) { try { down(0); } catch (error) { if (hits++ === 0) console.log(String(error)); } }',
    // A recursion may also exhaust the worker's own stack before QuickJS's limit, which ends the run at once, named as the stack limit.
    /^The program failed: The program (ran longer than the time limit \(timeoutMs: 3000 ms\) and was stopped|recursed deeper than the stack limit \(maxStackKb: 256 KB\))\.\nPrinted before it ended:\nInternalError: stack overflow\n$/,
  ],
];

t.test('no request waits for a program', async (t) => {
  let started = 0;
  let onStarted = (): void => undefined;
  const { url } = await startTestHub(t, {
    kernel: (hub) => {
      hub.children.addInProcess('people', createPeople);
      hub.children.addInProcess(
        'beacon',
        beaconServer(() => {
          started += 1;
          onStarted();
        }),
      );
    },
    config: { plugins: { 'map-tools': false, 'code-mode': { timeoutMs: 3000, memoryMb: 4, maxStackKb: 256, maxConcurrentRunsPerClient: 2 } } },
  });
  const programs = await connectClient(t, `${url}/hub`, '2026-07-28');
  const other = await connectClient(t, `${url}/people/mcp`, '2025-11-25');

  for (const [what, code, expected] of PROGRAMS) {
    // Two workers started beforehand (the last phase's were terminated), so that each
    // program has its whole time limit, however long a worker takes to start here.
    await Promise.all([0, 1].map(() => runProgram(programs, 'return 1;')));
    const events: string[] = [];
    const bothStarted = new Promise<void>((resolve) => {
      const target = started + 2;
      onStarted = () => {
        if (started >= target) resolve();
      };
    });
    const runs = [0, 1].map((index) =>
      runProgram(programs, code).then((result: CallToolResult) => {
        events.push(`run ${index} ended`);
        return result;
      }),
    );
    await bothStarted;
    const probes: Promise<unknown>[] = [];
    for (let round = 0; round < 3; round++) {
      probes.push(
        fetch(`${url}/livez`).then(async (response) => {
          t.equal(response.status, 200, `${what}: /livez answers`);
          await response.body?.cancel();
          events.push('livez');
        }),
        other.callTool({ name: 'list_people', arguments: { city: 'London' } }).then((result) => {
          t.equal(result.isError, undefined, `${what}: another caller's call answers`);
          events.push('call');
        }),
      );
    }
    await Promise.all(probes);
    events.push('probes answered');
    const results = await Promise.all(runs);
    t.same(events.slice(0, 7).sort(), ['call', 'call', 'call', 'livez', 'livez', 'livez', 'probes answered'], `${what}: every probe answered before either program ended`);
    for (const result of results) t.match(textOf(result), expected, `${what}: the program met its limit and was stopped at its time limit`);
  }
  const after = await runProgram(programs, "const { people } = await servers.people.list_people({ city: 'London' }); return people.length;");
  t.same(
    after.structuredContent,
    { output: '', value: 2, calls: [{ server: 'people', tool: 'list_people', outcome: 'ok', durationMs: (after.structuredContent as { calls: { durationMs: number }[] }).calls[0]?.durationMs }] },
    'the workers stopped were replaced: a later run works',
  );
});
