// tools/call of a trivial tool through the hub's /<name>/mcp versus straight to the same
// child over its own HTTP endpoint, on 2026-07-28 at 1 and 16 concurrent callers, and on
// 2025-11-25 at one caller. The child, the hub (this process) and the callers each run in
// their own process. Direct and proxied rounds alternate so load hits both alike; the best
// of three rounds is kept. A bare forwarding proxy (no MCP) runs beside them: what any
// extra HTTP hop costs here. The hub's and the bare proxy's CPU per call is this
// process's, measured around their rounds.
// Run: npx tsc -p . && node dist/bench/carriage.js [calls-per-round]
import { startBareProxy } from './bare-proxy.js';
import { startBenchHub } from './bench-hub.js';
import { bestOf, loadFromProcess, startHttpChild, type LoadFigures } from './measure.js';

const calls = Number(process.argv[2] ?? '3000');
const child = await startHttpChild();
// CARRIAGE_OBSERVABILITY=off measures the hub without the observability plugin (metrics and the call log).
const observability = process.env.CARRIAGE_OBSERVABILITY !== 'off';
const benchHub = await startBenchHub({ plugins: { 'oauth-as': false, 'map-tools': false, observability }, mcpServers: { echo: { type: 'http', url: child.url } } });
const hubUrl = `${benchHub.url}/echo/mcp`;
const bare = await startBareProxy(child.url);

/** A round's figures plus the CPU this process (the hub, or the bare proxy) spent per call. */
const withCpu = async (round: Promise<LoadFigures>): Promise<LoadFigures & { cpuMsPerCall: number }> => {
  const before = process.cpuUsage();
  const figures = await round;
  const used = process.cpuUsage(before);
  return { ...figures, cpuMsPerCall: Number(((used.user + used.system) / 1000 / figures.calls).toFixed(3)) };
};

const results = [];
for (const callers of [1, 16]) {
  await loadFromProcess(child.url, callers, 300);
  await loadFromProcess(hubUrl, callers, 300);
  await loadFromProcess(bare.url, callers, 300);
  const direct: LoadFigures[] = [];
  const proxied: Array<LoadFigures & { cpuMsPerCall: number }> = [];
  const forwarded: Array<LoadFigures & { cpuMsPerCall: number }> = [];
  for (let round = 0; round < 3; round += 1) {
    direct.push(await loadFromProcess(child.url, callers, calls));
    proxied.push(await withCpu(loadFromProcess(hubUrl, callers, calls)));
    forwarded.push(await withCpu(loadFromProcess(bare.url, callers, calls)));
  }
  const d = bestOf(direct);
  const p = bestOf(proxied);
  const f = bestOf(forwarded);
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
// The same at one caller for a 2025-11-25 client, which the hub serves beside 2026-07-28.
const legacy = (url: string) => loadFromProcess(url, 1, calls, 'echo', { text: 'hi' }, '2025-11-25');
await legacy(child.url);
await legacy(hubUrl);
const legacyDirect: LoadFigures[] = [];
const legacyProxied: LoadFigures[] = [];
for (let round = 0; round < 3; round += 1) {
  legacyDirect.push(await legacy(child.url));
  legacyProxied.push(await legacy(hubUrl));
}
const ld = bestOf(legacyDirect);
const lp = bestOf(legacyProxied);
const legacyCaller = {
  revision: '2025-11-25',
  direct: ld,
  throughHub: lp,
  addedP50Ms: Number((lp.p50Ms - ld.p50Ms).toFixed(3)),
  throughputRatio: Number((lp.callsPerSecond / ld.callsPerSecond).toFixed(2)),
};
await benchHub.close();
bare.server.close();
child.stop();
console.log(JSON.stringify({ calls, observability, results, legacyCaller, targets: { addedP50Ms: 1, throughputRatio: 0.7 } }, null, 2));
