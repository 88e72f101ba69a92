// What a full collection after a busy spell would give back and what it would cost the next
// spell: the question core/cli/idle-collection.ts answers with "once, after start-up only".
// The real `hub` CLI as `npm start` runs it, in front of server-everything over stdio (kept
// up), left quiet past its own start-up collection and warmed up with `--warmup` calls. Then
// `--rounds` times, in alternating order, two arms, each a rest of `--rest` seconds and a
// spell of `--calls` calls at 16 callers on `/everything/mcp` (raw-client.ts): in one, the
// rest ends with the collection the idle collection makes (V8's low-memory collection, the
// inspector's `HeapProfiler.collectGarbage`, as `collectAllGarbage` asks it), in the other it
// does not. Printed: the resident set and the heap in use before and after each collection,
// and each spell's hub CPU per call, its first `--first` calls apart (where code dropped by
// the collection is compiled again), and its p50; the medians of each arm at the end.
// Run: npm run build && node dist/bench/idle-collection.js [--rounds 3] [--calls 20000]
//   [--first 2000] [--rest 12] [--warmup 20000]
import { setTimeout as sleep } from 'node:timers/promises';
import { IDLE_CHECK_MS } from '../core/cli/idle-collection.js';
import { benchCommandLine } from './command-line.js';
import { EVERYTHING, startHubBin } from './hub-bin.js';
import { collectGarbage } from './inspector.js';
import { median, rawLoad } from './measure.js';

const USAGE = 'Usage: node dist/bench/idle-collection.js [--rounds 3] [--calls 20000] [--first 2000] [--rest 12] [--warmup 20000]';
const { values } = benchCommandLine(
  {
    options: {
      rounds: { type: 'string', default: '3' },
      calls: { type: 'string', default: '20000' },
      first: { type: 'string', default: '2000' },
      rest: { type: 'string', default: '12' },
      warmup: { type: 'string', default: '20000' },
    },
  },
  USAGE,
);
const rounds = Number(values.rounds);
const calls = Number(values.calls);
const first = Math.min(Number(values.first), calls);
const restMs = Number(values.rest) * 1000;

const hub = await startHubBin(
  { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], keepAlive: true } } },
  { plugins: {}, env: { LOG_LEVEL: 'info', HUB_PASSWORD: 'bench', CLIENT_CALLS_PER_MINUTE: '100000000' }, inspectable: true },
);
const token = (await hub.admin('tokens', 'mint', '--all', '--label', 'idle collection bench', '--expires-in', '1')).trim();
const link = await hub.inspector();
const spell = (count: number) =>
  rawLoad({ url: `${hub.url}/everything/mcp`, callers: 16, calls: count, warmup: 0, revision: '2026-07-28', tool: 'echo', arguments: { message: 'hi' }, expect: 'Echo: hi', bearer: token });
const heapUsedMb = async (): Promise<number> => mb((await link.call<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize);

// Past the hub's own one collection (the first check period without traffic), then warmed up: every spell measured runs after it.
await sleep(2 * IDLE_CHECK_MS + 1000);
await spell(Number(values.warmup));

interface Spell {
  collected: boolean;
  firstCpuUs: number;
  restCpuUs: number;
  p50Ms: number;
}
const spells: Spell[] = [];
const freed: Array<{ rssBefore: number; rssAfter: number; heapBefore: number; heapAfter: number }> = [];
console.log(`idle collection: ${rounds} rounds of a ${values.rest} s rest and ${calls} calls at 16 callers, with and without a collection at the end of the rest`);
for (let round = 0; round < rounds; round += 1) {
  for (const collected of round % 2 === 0 ? [false, true] : [true, false]) {
    await sleep(restMs);
    if (collected) {
      const [rssBefore, heapBefore] = [hub.rssMb(), await heapUsedMb()];
      const heapAfter = mb(await collectGarbage(link));
      freed.push({ rssBefore, rssAfter: hub.rssMb(), heapBefore, heapAfter });
      console.log(`  collection: resident ${rssBefore} -> ${hub.rssMb()} MB, heap used ${heapBefore} -> ${heapAfter} MB`);
    }
    const cpuStart = hub.cpuMicros();
    await spell(first);
    const cpuFirst = hub.cpuMicros();
    const rest = await spell(calls - first);
    const measured = { collected, firstCpuUs: (cpuFirst - cpuStart) / first, restCpuUs: (hub.cpuMicros() - cpuFirst) / (calls - first), p50Ms: rest.p50Ms };
    spells.push(measured);
    console.log(
      `  round ${round + 1} ${collected ? 'collected' : 'not collected'}: hub CPU per call ${measured.firstCpuUs.toFixed(1)} us (first ${first}), ${measured.restCpuUs.toFixed(1)} us (the rest); p50 ${rest.p50Ms.toFixed(3)} ms`,
    );
  }
}
await link.close();
await hub.close();

const arm = (collected: boolean) => spells.filter((one) => one.collected === collected);
const summary = (collected: boolean) => {
  const of = arm(collected);
  return { first: median(of.map((one) => one.firstCpuUs)), rest: median(of.map((one) => one.restCpuUs)), p50: median(of.map((one) => one.p50Ms)) };
};
const [without, withIt] = [summary(false), summary(true)];
console.log(`\nmedians, without vs with the collection: first ${first} calls ${without.first.toFixed(1)} vs ${withIt.first.toFixed(1)} us a call (${pct(withIt.first, without.first)}),`);
console.log(`  the rest ${without.rest.toFixed(1)} vs ${withIt.rest.toFixed(1)} us a call (${pct(withIt.rest, without.rest)}), p50 ${without.p50.toFixed(3)} vs ${withIt.p50.toFixed(3)} ms`);
console.log(
  `given back by a collection (median): resident ${median(freed.map((one) => one.rssBefore - one.rssAfter)).toFixed(1)} MB, heap ${median(freed.map((one) => one.heapBefore - one.heapAfter)).toFixed(1)} MB`,
);

function mb(bytes: number): number {
  return Math.round(bytes / 104_857.6) / 10;
}

function pct(value: number, reference: number): string {
  const change = (value / reference - 1) * 100;
  return `${change >= 0 ? '+' : ''}${change.toFixed(1)}%`;
}
