// tools/call of a trivial tool through the hub's /<name>/mcp versus straight to the same
// child over its own HTTP endpoint, on 2026-07-28, at 1 and 16 concurrent callers. The
// child, the hub (this process) and the callers each run in their own process. Direct and
// proxied rounds alternate so load hits both alike; the best of three rounds is kept. A
// bare forwarding proxy (no MCP) runs beside them: what any extra HTTP hop costs here.
// Run: npx tsc -p . && node dist/bench/carriage.js [calls-per-round]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { hub } from '../core/kernel.js';
import { startBareProxy } from './bare-proxy.js';
import { loadFromProcess, startHttpChild, type LoadFigures } from './measure.js';

const calls = Number(process.argv[2] ?? '3000');
const child = await startHttpChild();
const dataPath = await mkdtemp(join(tmpdir(), 'bench-carriage-'));
const app = Fastify({ logger: false });
await app.register(hub, {
  config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { echo: { type: 'http', url: child.url } } },
  env: { DATA_PATH: dataPath },
  settings: { dataPath },
});
const hubUrl = `${await app.listen({ host: '127.0.0.1', port: 0 })}/echo/mcp`;
const bare = await startBareProxy(child.url);

const best = (rounds: LoadFigures[]): LoadFigures => rounds.reduce((a, b) => (b.p50Ms < a.p50Ms ? b : a));
const results = [];
for (const callers of [1, 16]) {
  await loadFromProcess(child.url, callers, 300);
  await loadFromProcess(hubUrl, callers, 300);
  await loadFromProcess(bare.url, callers, 300);
  const direct: LoadFigures[] = [];
  const proxied: LoadFigures[] = [];
  const forwarded: LoadFigures[] = [];
  for (let round = 0; round < 3; round += 1) {
    direct.push(await loadFromProcess(child.url, callers, calls));
    proxied.push(await loadFromProcess(hubUrl, callers, calls));
    forwarded.push(await loadFromProcess(bare.url, callers, calls));
  }
  const d = best(direct);
  const p = best(proxied);
  const f = best(forwarded);
  results.push({
    callers,
    direct: d,
    throughHub: p,
    throughBareProxy: f,
    addedP50Ms: Number((p.p50Ms - d.p50Ms).toFixed(3)),
    throughputRatio: Number((p.callsPerSecond / d.callsPerSecond).toFixed(2)),
    bareProxyAddedP50Ms: Number((f.p50Ms - d.p50Ms).toFixed(3)),
    bareProxyThroughputRatio: Number((f.callsPerSecond / d.callsPerSecond).toFixed(2)),
  });
}
await app.close();
bare.server.close();
child.stop();
await rm(dataPath, { recursive: true, force: true });
console.log(JSON.stringify({ calls, results, targets: { addedP50Ms: 1, throughputRatio: 0.7 } }, null, 2));
