// Memory of the real `hub` CLI: its RSS once started with no child up (server-everything
// configured, asleep), then while 16 callers call server-everything's `echo` through
// `/everything/mcp` in a closed loop, a line every 30 s, against the targets:
// idle < 100 MB, under load <= 1.5x idle. The RSS is the hub process's own (not the child's),
// read from /proc.
// Run: npx tsc -p . && node dist/bench/memory-under-load.js [--seconds 300] [--every 30] [--callers 16]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { startHubBin } from './hub-bin.js';
import { loadFromProcess } from './measure.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '300' }, every: { type: 'string', default: '30' }, callers: { type: 'string', default: '16' } } });
const seconds = Number(values.seconds);
const every = Number(values.every);
const callers = Number(values.callers);
const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

const hub = await startHubBin({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } });
const rssMb = (): number => {
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${hub.pid}/status`, 'utf8'))?.[1]);
  return Math.round(kb / 102.4) / 10;
};
// Settled: start-up's garbage is collected within a few seconds of idling.
await sleep(5000);
const idleMb = rssMb();
console.log(`idle (no child up): ${idleMb} MB`);

const started = Date.now();
let calls = 0;
let running = true;
const loop = async (): Promise<void> => {
  while (running) calls += (await loadFromProcess(`${hub.url}/everything/mcp`, callers, 2000, 'echo', { message: 'hi' })).calls;
};
const load = loop();
const samples: number[] = [];
for (let elapsed = every; elapsed <= seconds; elapsed += every) {
  await sleep(started + elapsed * 1000 - Date.now());
  const rss = rssMb();
  samples.push(rss);
  console.log(`${String(elapsed).padStart(4)} s  ${String(rss).padStart(6)} MB  ${(rss / idleMb).toFixed(2)}x idle  ${calls} calls so far`);
}
running = false;
await load;
await hub.close();
const peakMb = Math.max(...samples);
console.log(JSON.stringify({ callers, seconds, calls, idleMb, peakMb, lastMb: samples.at(-1), peakOverIdle: Number((peakMb / idleMb).toFixed(2)), targets: { idleMb: '< 100', peakOverIdle: '<= 1.5' } }, null, 2));
