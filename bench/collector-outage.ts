// A collector outage at shutdown (issue 27, defect 3: SIGTERM took 8.8 s and the hub
// exited 1). The real `hub` CLI with traces going to: nothing (tracing off), a port where
// nothing listens (connection refused), and a collector that accepts connections and never
// answers (the flush budget's case). Each run makes calls, sends SIGTERM right after the
// last answer and times the exit, with its code. Run: node dist/bench/collector-outage.js [runs] [calls]
import { createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SHUTDOWN_FLUSH_MS } from '../plugins/observability/export-guard.js';
import { startHubBin } from './hub-bin.js';
import { median } from './measure.js';

const runs = Number(process.argv[2] ?? '5');
const calls = Number(process.argv[3] ?? '20');
const echoMeta = fileURLToPath(new URL('../test/fixtures/children/echo-meta.js', import.meta.url));

async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** A port nobody listens on: the listener is closed again at once. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A collector that takes connections and reads requests but never answers one. */
const sockets = new Set<Socket>();
const blackHole = createServer((socket) => {
  sockets.add(socket);
  socket.on('data', () => undefined);
  socket.on('close', () => sockets.delete(socket));
});
const blackHolePort = await listening(blackHole);

const cases: Array<{ name: string; env: () => Promise<Record<string, string>> }> = [
  { name: 'no tracing', env: async () => ({}) },
  { name: 'collector refuses connections', env: async () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await refusingPort()}` }) },
  { name: 'collector never answers', env: async () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${blackHolePort}` }) },
];

console.log(`SIGTERM after the last of ${calls} calls to the exit of the hub, ${runs} runs each (the flush budget is ${SHUTDOWN_FLUSH_MS / 1000} s)`);
for (const { name, env } of cases) {
  const times: number[] = [];
  const codes = new Set<number | null>();
  for (let run = 0; run < runs; run += 1) {
    // A short batch delay, so spans are on their way (and failing) before the shutdown.
    const hub = await startHubBin({ mcpServers: { meta: { command: process.execPath, args: [echoMeta] } } }, { env: { OTEL_BSP_SCHEDULE_DELAY: '100', ...(await env()) } });
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${hub.url}/meta/mcp`)));
    for (let call = 0; call < calls; call += 1) await client.callTool({ name: 'echo_meta', arguments: {} });
    const lastAnswer = performance.now();
    hub.signal('SIGTERM');
    codes.add(await hub.exited);
    times.push(performance.now() - lastAnswer);
    await client.close().catch(() => undefined);
    await hub.close();
  }
  console.log(`${name.padEnd(32)} median ${(median(times) / 1000).toFixed(2)} s, max ${(Math.max(...times) / 1000).toFixed(2)} s, exit code ${[...codes].join(', ')}`);
}
for (const socket of sockets) socket.destroy();
blackHole.close();
