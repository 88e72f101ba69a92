// What a tool call leaves to V8's old generation: the bytes its minor collections promote
// per call, read from V8's own trace (`--trace-gc-nvp`: each scavenge's `promoted` and
// `new_space_survived`), through the real `hub` CLI as `npm start` runs it, in front of
// server-everything over stdio, at 16 callers (raw-client.ts), on `/everything/mcp` and
// `/hub` `call_tool`, both revisions. Promoted bytes are what grows the old generation
// between full collections, and with it the resident set under load (memory-under-load.ts);
// a call whose objects are gone by the next minor collection promotes nothing.
//
// Each hub is first left quiet for `--settle` seconds (default 25: past the standalone
// hub's one idle collection, core/cli/idle-collection.ts), as a hub that waited for its
// traffic is; then 10,000 calls warm it up, and the figures are those of the next `--calls`.
// Run: npm run build && node dist/bench/promotion.js [--calls 40000] [--callers 16]
//   [--settle 25] [--only <text>] [--node-args="<options>"] [--baseline <checkout>]
// `--node-args` adds Node options to the hub (`--max-semi-space-size=4`); `--baseline` runs
// another checkout's hub the same way, after this one's (a built folder, or a commit built in
// a temporary worktree: baseline-checkout.ts). After the traced window, `--allocation-calls`
// (default 10000, 0 to skip) more calls are made under V8's sampling heap profiler, and the
// bytes allocated per call are printed beside (allocation.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { allocationPerCall } from './allocation.js';
import { baselineCheckout } from './baseline-checkout.js';
import { collectionOf, promotedBytes, type Collection } from './gc-trace.js';
import { ONE_STDIO_SERVER, startHubBin } from './hub-bin.js';
import { rawLoad } from './measure.js';
import { benchCommandLine } from './command-line.js';

const USAGE = 'Usage: node dist/bench/promotion.js [--calls 40000] [--callers 16]';
const { values } = benchCommandLine(
  {
    options: {
      calls: { type: 'string', default: '40000' },
      callers: { type: 'string', default: '16' },
      settle: { type: 'string', default: '25' },
      only: { type: 'string' },
      'node-args': { type: 'string', default: '' },
      baseline: { type: 'string' },
      'allocation-calls': { type: 'string', default: '10000' },
    },
  },
  USAGE,
);
const calls = Number(values.calls);
const callers = Number(values.callers);

const roads = [
  { revision: '2026-07-28', road: '/everything/mcp' },
  { revision: '2026-07-28', road: '/hub call_tool' },
  { revision: '2025-11-25', road: '/everything/mcp' },
  { revision: '2025-11-25', road: '/hub call_tool' },
].filter(({ revision, road }) => values.only === undefined || `${road} ${revision}`.includes(values.only));

const baseline = values.baseline === undefined ? undefined : baselineCheckout(values.baseline);
process.on('exit', () => baseline?.remove());
const checkouts: Array<string | undefined> = [undefined, ...(baseline ? [baseline.root] : [])];
const allocationCalls = Number(values['allocation-calls']);
console.log('subject                                      revision     scavenges  full  promoted B/call  survived B/call  scavenge pause us/call  allocated KB/call');
for (const checkout of checkouts) {
  for (const { revision, road } of roads) {
    const collections: Collection[] = [];
    let pending = '';
    const hub = await startHubBin(ONE_STDIO_SERVER, {
      plugins: {},
      env: { LOG_LEVEL: 'info', HUB_PASSWORD: 'bench', CLIENT_CALLS_PER_MINUTE: '100000000' },
      nodeArgs: ['--trace-gc-nvp', ...(checkout === undefined ? values['node-args'].split(' ').filter(Boolean) : [])],
      ...(checkout !== undefined && { checkout }),
      inspectable: allocationCalls > 0,
      onOutput: (chunk) => {
        const lines = (pending + chunk.toString()).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const collection = collectionOf(line);
          if (collection) collections.push(collection);
        }
      },
    });
    try {
      const token = (await hub.admin('tokens', 'mint', '--all', '--label', 'promotion bench', '--expires-in', '1')).trim();
      await sleep(Number(values.settle) * 1000);
      const echo = { message: 'hi' };
      const load = (count: number) =>
        road === '/everything/mcp'
          ? rawLoad({ url: `${hub.url}/everything/mcp`, callers, calls: count, warmup: 0, revision, tool: 'echo', arguments: echo, expect: 'Echo: hi', bearer: token })
          : rawLoad({
              url: `${hub.url}/hub`,
              callers,
              calls: count,
              warmup: 0,
              revision,
              tool: 'call_tool',
              arguments: { server: 'everything', tool: 'echo', arguments: echo },
              expect: 'Echo: hi',
              bearer: token,
            });
      await load(10_000);
      // The trace of the warm-up's last collections may still be in the pipe.
      await sleep(300);
      const from = collections.length;
      await load(calls);
      await sleep(300);
      const window = collections.slice(from);
      const minor = window.filter((collection) => collection.minor);
      const survived = minor.reduce((total, collection) => total + collection.survived, 0);
      let allocated = '';
      if (allocationCalls > 0) {
        const link = await hub.inspector();
        const { bytesPerCall } = await allocationPerCall(link, allocationCalls, () => load(allocationCalls));
        await link.close();
        allocated = (bytesPerCall / 1024).toFixed(1);
      }
      const label = `hub ${road}${checkout === undefined ? '' : ' [baseline]'}`;
      console.log(
        `${label.padEnd(45)}${revision.padEnd(13)}${String(minor.length).padStart(9)}${String(window.length - minor.length).padStart(6)}` +
          `${(promotedBytes(window) / calls).toFixed(0).padStart(17)}${(survived / calls).toFixed(0).padStart(17)}` +
          `${((minor.reduce((total, collection) => total + collection.pauseMs, 0) * 1000) / calls).toFixed(1).padStart(24)}${allocated.padStart(19)}`,
      );
    } finally {
      await hub.close();
    }
  }
}
