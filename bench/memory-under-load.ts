// Memory of the real programs, read from /proc (each process's own RSS, not its children's):
//
// - `map-server --http` before it loads any extract;
// - the `hub` CLI as `npm start` runs it (package.json's start script's Node options), with
//   the plugins a config gets by default (oauth-as, observability, ...) and one configured
//   stdio server (server-everything), asleep: its idle RSS;
// - the same hub while 16 callers call server-everything's `echo` through
//   `/everything/mcp` in a closed loop (raw-client.ts, an API token minted by hub-admin,
//   the per-client rate limit raised out of the way), a line every 30 s;
// - the same hub after the load has stopped for `--rest` seconds (default 60);
//
// each with the V8 heap in use beside the RSS (from the hub's /metrics), against the
// targets: idle < 100 MB, map-server < 80 MB, under load and after the rest <= 1.3x idle.
// Run: npm run build && node dist/bench/memory-under-load.js [--seconds 300] [--every 30] [--rest 60] [--callers 16] [--node-args="<options>"] [--snapshots <dir>] [--full-gc]
// `--node-args` adds Node options to the hub's (to weigh a V8 setting against the default).
// `--snapshots <dir>` writes a heap snapshot of the hub at idle, at the end of the load and
// after the rest into <dir> (`--heapsnapshot-signal`; each pauses the hub for a moment), and
// prints the top of each (heap-summary.ts, in a process of its own). Making a snapshot grows
// the hub's resident set for good (see inspector.ts): read the ratios from a run without.
// `--full-gc` makes a full collection in the hub at the end of the rest (through its
// inspector, see inspector.ts; before the last snapshot) and prints its RSS and heap after it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { snapshotAndSummarize, snapshotArgs } from './heap-snapshots.js';
import { ONE_STDIO_SERVER, rssMbOf, startHubBin } from './hub-bin.js';
import { collectGarbage } from './inspector.js';
import type { RawLoad } from './raw-client.js';
import { IDLE_CHECK_MS } from '../core/cli/idle-collection.js';
import { benchCommandLine } from './command-line.js';

const USAGE = 'Usage: node dist/bench/memory-under-load.js [--seconds 300] [--every 30] [--rest 60] [--callers 16] [--node-args="<options>"] [--snapshots <dir>] [--full-gc]';
const { values } = benchCommandLine(
  {
    options: {
      seconds: { type: 'string', default: '300' },
      every: { type: 'string', default: '30' },
      rest: { type: 'string', default: '60' },
      callers: { type: 'string', default: '16' },
      'node-args': { type: 'string', default: '' },
      snapshots: { type: 'string' },
      'full-gc': { type: 'boolean', default: false },
    },
  },
  USAGE,
);
const seconds = Number(values.seconds);
const restSeconds = Number(values.rest);
const every = Number(values.every);
const callers = Number(values.callers);
/** The standalone hub collects once a check period has been quiet (core/cli/idle-collection.ts): idle is read after that. */
const SETTLE_MS = 2 * IDLE_CHECK_MS + 1000;

// The map server, online (no extract), serving HTTP.
const port = await new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as AddressInfo;
    probe.close(() => resolve(free));
  });
});
const mapServer = spawn(process.execPath, [fileURLToPath(new URL('../plugins/map-tools/cli.js', import.meta.url)), '--http', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
await once(mapServer.stderr, 'data');
await sleep(SETTLE_MS);
const mapServerMb = rssMbOf(mapServer.pid ?? 0);
mapServer.kill('SIGTERM');
console.log(`map-server before loading an extract: ${mapServerMb} MB`);

const hub = await startHubBin(ONE_STDIO_SERVER, {
  plugins: {},
  env: { LOG_LEVEL: 'info', HUB_PASSWORD: 'bench', CLIENT_CALLS_PER_MINUTE: '100000000' },
  nodeArgs: [...values['node-args'].split(' ').filter(Boolean), ...(values.snapshots ? snapshotArgs(values.snapshots) : [])],
  inspectable: values['full-gc'],
});
const token = (await hub.admin('tokens', 'mint', '--all', '--label', 'memory bench', '--expires-in', '1')).trim();

/** The hub's V8 heap in use, in MB, from its default process metrics. */
const heapUsedMb = async (): Promise<number> => {
  const text = await (await fetch(`${hub.url}/metrics`)).text();
  return Math.round(Number(/^nodejs_heap_size_used_bytes\S* (\S+)/m.exec(text)?.[1]) / 104857.6) / 10;
};
/** A heap snapshot of the hub, and the top of it. */
const snapshot = async (): Promise<void> => {
  if (values.snapshots) await snapshotAndSummarize(values.snapshots, () => hub.signal('SIGUSR2'), heapUsedMb);
};
await sleep(SETTLE_MS);
const idleMb = hub.rssMb();
const idleHeapMb = await heapUsedMb();
console.log(`hub idle (one stdio server configured, asleep): ${idleMb} MB, heap used ${idleHeapMb} MB`);
await snapshot();

const started = Date.now();
let calls = 0;
let running = true;
const load: RawLoad = { url: `${hub.url}/everything/mcp`, callers, calls: 5000, warmup: 0, revision: '2026-07-28', tool: 'echo', arguments: { message: 'hi' }, expect: 'Echo: hi', bearer: token };
const loop = async (): Promise<void> => {
  while (running) {
    const client = spawn(process.execPath, [fileURLToPath(new URL('./raw-client.js', import.meta.url)), JSON.stringify(load)], { stdio: ['ignore', 'ignore', 'inherit'] });
    const [code] = (await once(client, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`the load client exited with ${code}`);
    calls += load.calls;
  }
};
const loading = loop();
const samples: number[] = [];
for (let elapsed = every; elapsed <= seconds; elapsed += every) {
  await sleep(started + elapsed * 1000 - Date.now());
  const rss = hub.rssMb();
  samples.push(rss);
  console.log(`${String(elapsed).padStart(4)} s  ${String(rss).padStart(6)} MB  ${(rss / idleMb).toFixed(2)}x idle  heap used ${await heapUsedMb()} MB  ${calls} calls so far`);
}
running = false;
await loading;
await snapshot();
await sleep(restSeconds * 1000);
const restedMb = hub.rssMb();
const restedHeapMb = await heapUsedMb();
console.log(`after ${restSeconds} s without load: ${restedMb} MB  ${(restedMb / idleMb).toFixed(2)}x idle  heap used ${restedHeapMb} MB`);
let collected: { mb: number; heapUsedMb: number } | undefined;
if (values['full-gc']) {
  const link = await hub.inspector();
  const heapUsed = await collectGarbage(link);
  collected = { mb: hub.rssMb(), heapUsedMb: Math.round(heapUsed / 104857.6) / 10 };
  await link.close();
  console.log(`after a full collection: ${collected.mb} MB  ${(collected.mb / idleMb).toFixed(2)}x idle  heap used ${collected.heapUsedMb} MB`);
}
await snapshot();
await hub.close();
const peakMb = Math.max(...samples);
console.log(
  JSON.stringify(
    {
      mapServerMb,
      hubIdleMb: idleMb,
      hubIdleHeapUsedMb: idleHeapMb,
      callers,
      seconds,
      calls,
      peakMb,
      lastMb: samples.at(-1),
      peakOverIdle: Number((peakMb / idleMb).toFixed(2)),
      restedMb,
      restedHeapUsedMb: restedHeapMb,
      restedOverIdle: Number((restedMb / idleMb).toFixed(2)),
      ...(collected && { fullGcMb: collected.mb, fullGcHeapUsedMb: collected.heapUsedMb, fullGcOverIdle: Number((collected.mb / idleMb).toFixed(2)) }),
      targets: { mapServerMb: '< 80', hubIdleMb: '< 100', peakOverIdle: '<= 1.3', restedOverIdle: '<= 1.3' },
    },
    null,
    2,
  ),
);
