// tools/call of a trivial tool through the hub's /<name>/mcp versus straight to the same
// child over its own HTTP endpoint (a separate process), on 2026-07-28, at 1 and 16
// concurrent callers. Direct and proxied rounds alternate so load hits both alike.
// Run: npx tsc -p . && node dist/bench/carriage.js [calls-per-round]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Fastify from 'fastify';
import { hub } from '../core/kernel.js';
import { runLoad, startHttpChild, type LoadFigures } from './measure.js';

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

const caller = (url: string) => async () => {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return () => client.callTool({ name: 'echo', arguments: { text: 'hi' } });
};

const best = (rounds: LoadFigures[]): LoadFigures => rounds.reduce((a, b) => (b.p50Ms < a.p50Ms ? b : a));
const results = [];
for (const callers of [1, 16]) {
  await runLoad(callers, 300, caller(child.url));
  await runLoad(callers, 300, caller(hubUrl));
  const direct: LoadFigures[] = [];
  const proxied: LoadFigures[] = [];
  for (let round = 0; round < 3; round += 1) {
    direct.push(await runLoad(callers, calls, caller(child.url)));
    proxied.push(await runLoad(callers, calls, caller(hubUrl)));
  }
  const d = best(direct);
  const p = best(proxied);
  results.push({
    callers,
    direct: d,
    throughHub: p,
    addedP50Ms: Number((p.p50Ms - d.p50Ms).toFixed(3)),
    throughputRatio: Number((p.callsPerSecond / d.callsPerSecond).toFixed(2)),
  });
}
await app.close();
child.stop();
await rm(dataPath, { recursive: true, force: true });
console.log(JSON.stringify({ calls, results, targets: { addedP50Ms: 1, throughputRatio: 0.7 } }, null, 2));
