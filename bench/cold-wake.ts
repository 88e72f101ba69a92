// Cold wake: the time from a call on a sleeping stdio server to its answer, minus the
// child's own start-up measured alone (spawn, handshake, tool listing and the same call
// through a bare SDK client). Runs alternate so machine load hits both sides alike.
// Run: npx tsc -p . && node dist/bench/cold-wake.js [runs]
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startBenchHub } from './bench-hub.js';
import { median } from './measure.js';

const runs = Number(process.argv[2] ?? '15');
const child = fileURLToPath(new URL('../test/fixtures/children/crashy.js', import.meta.url));

async function alone(): Promise<number> {
  const started = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [child], stderr: 'pipe' }));
  await client.listTools();
  await client.callTool({ name: 'echo', arguments: {} });
  const elapsed = performance.now() - started;
  await client.close();
  return elapsed;
}

const benchHub = await startBenchHub({ mcpServers: { bench: { command: process.execPath, args: [child] } } });
const server = benchHub.hub.children.get('bench');
if (!server) throw new Error('the bench server is missing');

const aloneTimes: number[] = [];
const wakeTimes: number[] = [];
await alone(); // warm the file system cache for both sides
for (let run = 0; run < runs; run += 1) {
  aloneTimes.push(await alone());
  const started = performance.now();
  await server.withClient((client) => client.callTool({ name: 'echo', arguments: {} }));
  wakeTimes.push(performance.now() - started);
  await server.sleep();
}
await benchHub.close();

const overhead = aloneTimes.map((time, index) => (wakeTimes[index] ?? Number.NaN) - time);
console.log(
  JSON.stringify(
    {
      runs,
      aloneMedianMs: Math.round(median(aloneTimes)),
      coldWakeMedianMs: Math.round(median(wakeTimes)),
      hubOverheadMedianMs: Math.round(median(overhead)),
      hubOverheadOfMediansMs: Math.round(median(wakeTimes) - median(aloneTimes)),
      targetMs: 50,
    },
    null,
    2,
  ),
);
