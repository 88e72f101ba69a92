// Fail fast (issue 18, item 1): the time from a call on a server that cannot start to the
// answer naming the cause, through the real `hub` CLI: on /hub (call_tool) and on the
// server's own endpoint, for a command that does not exist, a missing module and a script
// that exits at once. "spawned" calls start the broken command (the memory of the last
// failure has lapsed); "remembered" ones come within failedStartMemoryMs of a failure.
// Before the change these answers took 60 to 240 s. Run: node dist/bench/fail-fast.js [runs]
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { DEFAULT_CHILD_TIMINGS } from '../core/children/timings.js';
import { startHubBin } from './hub-bin.js';
import { median } from './measure.js';

const runs = Number(process.argv[2] ?? '5');
const exitsAtOnce = fileURLToPath(new URL('../test/fixtures/children/exits-at-once.js', import.meta.url));
const servers = {
  'missing-command': { command: '/nonexistent/mcp-server' },
  'missing-module': { command: process.execPath, args: ['/nonexistent/server.js'] },
  'exits-at-once': { command: process.execPath, args: [exitsAtOnce] },
};
const hub = await startHubBin({ mcpServers: servers });
const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/hub`)));

/** One call's time to its answer, checking that the answer names the cause. */
async function timed(call: () => Promise<string>): Promise<number> {
  const started = performance.now();
  const answer = await call();
  const elapsed = performance.now() - started;
  if (!/could not start: /.test(answer)) throw new Error(`unexpected answer: ${answer}`);
  return elapsed;
}

const viaHub = (server: string) => async () => {
  const result = await client.callTool({ name: 'call_tool', arguments: { server, tool: 'anything' } });
  return (result.content as { text: string }[])[0]?.text ?? '';
};
const viaEndpoint = (server: string) => async () => {
  const response = await fetch(`${hub.url}/${server}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'anything', arguments: {} } }),
  });
  return ((await response.json()) as { error?: { message: string } }).error?.message ?? '';
};

const figures: Record<string, Record<string, number>> = {};
for (const server of Object.keys(servers)) {
  const spawned = { hub: [] as number[], endpoint: [] as number[] };
  const remembered: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    for (const [road, call] of [
      ['hub', viaHub(server)],
      ['endpoint', viaEndpoint(server)],
    ] as const) {
      await sleep(DEFAULT_CHILD_TIMINGS.failedStartMemoryMs + 100);
      spawned[road].push(await timed(call));
      remembered.push(await timed(call));
    }
  }
  figures[server] = {
    hubSpawnedMedianMs: Math.round(median(spawned.hub)),
    endpointSpawnedMedianMs: Math.round(median(spawned.endpoint)),
    rememberedMedianMs: Math.round(median(remembered)),
    slowestMs: Math.round(Math.max(...spawned.hub, ...spawned.endpoint, ...remembered)),
  };
}
await client.close();
await hub.close();
console.log(JSON.stringify({ runs, figures }, null, 2));
