// What an `async` function that waits allocates, against handing a promise on with `.then`:
// the reason the commonest tool call passes the child's promise on rather than awaiting it in
// each layer (docs/internals/performance.md, issue 57's fourth pass). Each way is called
// `--calls` times, one after the other, each waiting for a promise settled on the next turn,
// under V8's sampling heap profiler of this process (node:inspector, no port); printed: the
// bytes allocated per call, the bare promise's (the loop and the wait themselves) first.
// Run: npm run build && node dist/bench/async-frames.js [--calls 20000]
import { Session } from 'node:inspector/promises';
import { benchCommandLine } from './command-line.js';

const USAGE = 'Usage: node dist/bench/async-frames.js [--calls 20000]';
const { values } = benchCommandLine({ options: { calls: { type: 'string', default: '20000' } } }, USAGE);
const calls = Number(values.calls);

interface ProfileNode {
  selfSize: number;
  children: ProfileNode[];
}

const session = new Session();
session.connect();

/** Bytes allocated per call of `way`, everything sampled included (collected objects too). */
async function allocatedPerCall(way: (value: number) => Promise<number>): Promise<number> {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 64, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  for (let at = 0; at < calls; at += 1) await way(at);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  await session.post('HeapProfiler.disable');
  let total = 0;
  const walk = (node: ProfileNode): void => {
    total += node.selfSize;
    node.children.forEach(walk);
  };
  walk(profile.head);
  return total / calls;
}

const nextTurn = (value: number): Promise<number> => new Promise((resolve) => setImmediate(() => resolve(value)));
const ways: Array<[string, (value: number) => Promise<number>]> = [
  ['the promise alone', (value) => nextTurn(value)],
  ['handed on with .then', (value) => nextTurn(value).then((settled) => settled + 1)],
  [
    'awaited in a small async function',
    async (value) => {
      const settled = await nextTurn(value);
      return settled + 1;
    },
  ],
  [
    'awaited in an async function with ten locals live across the wait',
    async (value) => {
      const [a, b, c, d, e, f, g, h, i, j] = [value, value * 2, String(value), [value], { value }, value + 1, value + 2, value + 3, value + 4, value + 5];
      const settled = await nextTurn(value);
      return settled + a + b + c.length + d.length + e.value + f + g + h + i + j;
    },
  ],
];
// Each way once unmeasured first, so that every one is compiled before it is measured.
for (const [, way] of ways) await allocatedPerCall(way);
for (const [name, way] of ways) console.log(`${name.padEnd(68)} ${(await allocatedPerCall(way)).toFixed(0).padStart(6)} bytes a call`);
session.disconnect();
