// guard-secrets' cost per call over a hub's life: the real `hub` CLI with guard-secrets on,
// in front of server-everything, answering batches of sequential `echo` calls on
// /everything/mcp; the hub process's CPU per call is printed for each batch. Flat figures
// mean a scan costs what the first did; secretlint's profiler, left on, made each batch
// dearer than the one before (see plugins/guard-secrets/rules.ts).
//
// Run: npm run build && node dist/bench/guard-secrets-scans.js [batches] [calls per batch]
import { fileURLToPath } from 'node:url';
import { startHubBin } from './hub-bin.js';

const batches = Number(process.argv[2] ?? '6');
const perBatch = Number(process.argv[3] ?? '200');
const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

const hub = await startHubBin(
  { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'], keepAlive: true } } },
  { plugins: { 'oauth-as': false, 'map-tools': false, 'guard-secrets': true }, env: { LOG_LEVEL: 'info' } },
);
const call = async (): Promise<void> => {
  const response = await fetch(`${hub.url}/everything/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } }),
  });
  const text = await response.text();
  if (!text.includes('Echo: hi')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
};
try {
  await call();
  console.log(`guard-secrets: ${batches} batches of ${perBatch} sequential calls; the hub process's CPU per call`);
  for (let batch = 1; batch <= batches; batch += 1) {
    const cpu = hub.cpuMicros();
    for (let made = 0; made < perBatch; made += 1) await call();
    console.log(`batch ${batch} (calls ${(batch - 1) * perBatch + 1}-${batch * perBatch}): ${((hub.cpuMicros() - cpu) / perBatch).toFixed(0)} us of hub CPU per call, RSS ${hub.rssMb()} MB`);
  }
} finally {
  await hub.close();
}
