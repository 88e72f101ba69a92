// guard-secrets' cost per call: two real `hub` CLIs in front of server-everything, one with
// guard-secrets on and one without, answering the same batches of sequential `echo` calls
// of 1 KB (arguments and result) on /everything/mcp in turn (so both meet the same load); each hub process's CPU per call
// is printed for each batch, with the ratio. Flat figures over batches mean a scan costs
// what the first did (secretlint's profiler, left on, made each batch dearer than the one
// before); the ratio is what the scan adds to a call (issue 54.4).
//
// Run: npm run build && node dist/bench/guard-secrets-scans.js [batches] [calls per batch]
import { fileURLToPath } from 'node:url';
import { startHubBin } from './hub-bin.js';

const batches = Number(process.argv[2] ?? '6');
const perBatch = Number(process.argv[3] ?? '200');
const everything = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));

const start = (guarded: boolean) =>
  startHubBin(
    { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'], keepAlive: true } } },
    { plugins: { 'oauth-as': false, 'map-tools': false, 'guard-secrets': guarded }, env: { LOG_LEVEL: 'info' } },
  );
const hubs = { on: await start(true), off: await start(false) };
/** A 1 KB message of token-like words: read by the scan (a short one is skipped before the rules), holding no secret. */
const MESSAGE = Array.from({ length: 48 }, (_, index) => `word${String(index).padStart(2, '0')}abcdefghijklmn`)
  .join(' ')
  .slice(0, 1024);
const call = async (url: string): Promise<void> => {
  const response = await fetch(`${url}/everything/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { message: MESSAGE } } }),
  });
  const text = await response.text();
  if (!text.includes('Echo: word00')) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
};
const batch = async (hub: typeof hubs.on): Promise<number> => {
  const cpu = hub.cpuMicros();
  for (let made = 0; made < perBatch; made += 1) await call(hub.url);
  return (hub.cpuMicros() - cpu) / perBatch;
};
try {
  for (const hub of Object.values(hubs)) for (let warm = 0; warm < 50; warm += 1) await call(hub.url);
  console.log(`guard-secrets: ${batches} batches of ${perBatch} sequential calls on each hub, in turn; each hub process's CPU per call`);
  const ratios: number[] = [];
  for (let round = 1; round <= batches; round += 1) {
    const on = await batch(hubs.on);
    const off = await batch(hubs.off);
    ratios.push(on / off);
    console.log(`batch ${round}: on ${on.toFixed(0)} us, off ${off.toFixed(0)} us per call, on/off ${(on / off).toFixed(2)}, RSS on ${hubs.on.rssMb()} MB, off ${hubs.off.rssMb()} MB`);
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`median on/off ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2)}`);
} finally {
  await Promise.all(Object.values(hubs).map((hub) => hub.close()));
}
