import type { Client } from '@modelcontextprotocol/client';
import t, { type Test } from 'tap';
import { kitchenSinkObserved } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient } from '../../helpers/clients.js';
import { structuredMeta } from '../meta-tools/helpers.js';
import { runProgram, startCodeHub, textOf, type RunAnswer } from './helpers.js';

/** A program that ends well, run after each hostile one: the hub and later runs are unaffected. */
async function stillWorks(t: Test, client: Client): Promise<void> {
  const answer = (await structuredMeta(t, client, 'run_code', {
    code: "const { people } = await servers.people.list_people({ city: 'New York' }) as any; return people[0].name;",
  })) as unknown as RunAnswer;
  t.equal(answer.value, 'Grace', 'a later run on the same hub works');
}

/** Resolves once the kitchen sink's `hang` tool has been entered `count` times in all. */
async function hangsReach(count: number): Promise<void> {
  while (kitchenSinkObserved.hangs < count) await new Promise((resolve) => setImmediate(resolve));
}

t.test('every limit ends a hostile program with a tool error naming it', async (t) => {
  // Limits small enough that each hostile program meets its own first; the time limit is
  // generous here (a loaded machine must not turn a memory test into a timeout) and gets
  // its own hub below.
  const { url } = await startCodeHub(t, { memoryMb: 8, maxToolCalls: 3, maxOutputBytes: 2000, maxResultBytes: 2000, maxStackKb: 256, timeoutMs: 600_000 });
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  const cases: [string, string, RegExp][] = [
    [
      'allocates without end',
      'const all: number[][] = [];\nwhile (true) all.push(new Array(1000).fill(all.length));',
      /^The program failed: The program used more memory than the limit \(memoryMb: 8 MB\)\.$/,
    ],
    ['one allocation too large', 'return new ArrayBuffer(64 * 1024 * 1024).byteLength;', /^The program failed: The program used more memory than the limit \(memoryMb: 8 MB\)\.$/],
    [
      'recurses deeply',
      'function down(n: number): number { return down(n + 1) + 1; }\nreturn down(0);',
      /^The program failed: The program recursed deeper than the stack limit \(maxStackKb: 256 KB\)\.$/,
    ],
    [
      'prints megabytes',
      "while (true) console.log('x'.repeat(1000));",
      /^The program failed: The program printed more than the output limit \(maxOutputBytes: 2000 bytes\)\.\nPrinted before it ended:\nx{1000}\n$/,
    ],
    ['prints one huge line', "console.log('y'.repeat(5 * 1024 * 1024));", /^The program failed: The program printed more than the output limit \(maxOutputBytes: 2000 bytes\)\.$/],
    ['returns megabytes', "return 'z'.repeat(1024 * 1024);", /^The program failed: The returned value is larger than the result limit \(maxResultBytes: 2000 bytes\)\.$/],
    ['calls tools without end', 'for (;;) { try { await servers.people.list_people(); } catch {} }', /^The program failed: The program made more tool calls than the limit \(maxToolCalls: 3\)\.$/],
    ['throws', "const a = 1;\nthrow new TypeError('bad input ' + a);", /^The program failed: TypeError: bad input 1 \(line 2\)$/],
    ['a cyclic return value', 'const a: any = {}; a.self = a; return a;', /^The program failed: The returned value is not JSON: TypeError: .*circular/],
  ];
  for (const [what, code, expected] of cases) {
    const result = await runProgram(client, code);
    t.equal(result.isError, true, `${what}: a tool error`);
    t.match(textOf(result), expected, `${what}: names the limit or the error`);
    await stillWorks(t, client);
  }
  const caught = await runProgram(client, 'let n = 0;\nfor (;;) { try { await servers.people.list_people(); n++; } catch { if (n > 100) break; } }\nreturn n;');
  t.match(textOf(caught), /maxToolCalls: 3/, 'catching the refusal does not let a program go past maxToolCalls');
  const tooLong = await client.callTool({ name: 'run_code', arguments: { code: 'x'.repeat(64 * 1024 + 1) } });
  t.match(textOf(tooLong), /^Invalid arguments for run_code: "code": expected/, 'a program over 64 KB is refused before it runs');
});

t.test('the time limit: the interrupt handler stops a loop, the timer a run waiting on a tool', async (t) => {
  // Neither program ever ends, so the outcome is the same at any speed. The loop burns a
  // core until it is stopped: its hub's limit is shorter, though long enough for a slow
  // sandbox start to reach the loop; the other's lets a slow start still reach the tool
  // call the timer must cancel.
  const short = await startCodeHub(t, { timeoutMs: 1_000 });
  const looped = await runProgram(await connectClient(t, `${short.url}/hub`, '2025-11-25'), 'let i = 0;\nwhile (true) i++;');
  t.equal(textOf(looped), 'The program failed: The program ran longer than the time limit (timeoutMs: 1000 ms) and was stopped.');
  const { url } = await startCodeHub(t, { timeoutMs: 3_000 });
  const client = await connectClient(t, `${url}/hub`, '2025-11-25');
  const cancellations = kitchenSinkObserved.cancellations;
  const waited = await runProgram(client, 'await servers.sink.hang();');
  t.equal(textOf(waited), 'The program failed: The program ran longer than the time limit (timeoutMs: 3000 ms) and was stopped.');
  while (kitchenSinkObserved.cancellations === cancellations) await new Promise((resolve) => setImmediate(resolve));
  t.pass('the tool call the run waited on was cancelled with it');
});

t.test('concurrent runs: per caller, and in all', async (t) => {
  t.test('per caller', async (t) => {
    const { url } = await startCodeHub(t, { maxConcurrentRunsPerClient: 1, maxConcurrentRuns: 4 });
    const client = await connectClient(t, `${url}/hub`, '2026-07-28');
    const hangs = kitchenSinkObserved.hangs;
    const controller = new AbortController();
    const first = runProgram(client, 'await servers.sink.hang();', { signal: controller.signal }).catch(() => undefined);
    await hangsReach(hangs + 1);
    t.equal(textOf(await runProgram(client, 'return 1')), 'Too many programs running for this caller (maxConcurrentRunsPerClient: 1); wait for one to end.');
    const cancellations = kitchenSinkObserved.cancellations;
    controller.abort();
    await first;
    while (kitchenSinkObserved.cancellations === cancellations) await new Promise((resolve) => setImmediate(resolve));
    let answer: RunAnswer | undefined;
    // The slot is given back once the cancelled run has ended, which the caller hears of before the hub does.
    while (!answer) {
      const result = await runProgram(client, 'return 1');
      if (!result.isError) answer = result.structuredContent as RunAnswer;
      else await new Promise((resolve) => setImmediate(resolve));
    }
    t.equal(answer.value, 1, 'a cancelled run gives its slot back');
  });

  t.test('in all', async (t) => {
    const { url } = await startCodeHub(t, { maxConcurrentRunsPerClient: 4, maxConcurrentRuns: 1 });
    const client = await connectClient(t, `${url}/hub`, '2026-07-28');
    const hangs = kitchenSinkObserved.hangs;
    const controller = new AbortController();
    const first = runProgram(client, 'await servers.sink.hang();', { signal: controller.signal }).catch(() => undefined);
    await hangsReach(hangs + 1);
    t.equal(textOf(await runProgram(client, 'return 1')), 'Too many programs running on the hub (maxConcurrentRuns: 1); try again shortly.');
    controller.abort();
    await first;
  });
});
