// /hub figures: list_servers with 200 configured stdio servers, all asleep (and the
// proof that none was started), then call_tool through /hub versus the same tool through
// /<name>/mcp, as the ratio of p50 latencies. 2026-07-28, one caller, from raw-client.ts
// in its own process; beside the end-to-end figures, the list_servers handler's own time.
// Run: npm run build && node dist/bench/meta-tools.js [calls]
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MetaToolContext } from '../core/calls/meta-tool.js';
import { startBenchHub } from './bench-hub.js';
import { bestOf, percentile, rawLoad, startHttpChild, type LoadFigures } from './measure.js';

const calls = Number(process.argv[2] ?? '2000');
const SERVERS = 200;
const fixture = fileURLToPath(new URL('../test/fixtures/children/crashy.js', import.meta.url));
const scratch = await mkdtemp(join(tmpdir(), 'bench-meta-'));
const startsFile = join(scratch, 'starts');
const child = await startHttpChild();

const mcpServers: Record<string, unknown> = { echo: { type: 'http', url: child.url } };
for (let index = 0; index < SERVERS - 1; index += 1) {
  mcpServers[`sleeper-${index}`] = { command: process.execPath, args: [fixture], env: { FIXTURE_STARTS: startsFile } };
}
const benchHub = await startBenchHub({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers });
const base = benchHub.url;

const load = (url: string, count: number, tool: string, args: Record<string, unknown>, expect: string) =>
  rawLoad({ url, callers: 1, calls: count, warmup: Math.min(200, count), revision: '2026-07-28', tool, arguments: args, expect });
const listServers = (count: number) => load(`${base}/hub`, count, 'list_servers', {}, `sleeper-${SERVERS - 2}`);
const viaHub = (count: number) => load(`${base}/hub`, count, 'call_tool', { server: 'echo', tool: 'echo', arguments: { text: 'hi' } }, 'hi');
const viaEndpoint = (count: number) => load(`${base}/echo/mcp`, count, 'echo', { text: 'hi' }, 'hi');

const listings: LoadFigures[] = [];
for (let round = 0; round < 3; round += 1) listings.push(await listServers(calls));
const listing = bestOf(listings);
// The floor on this machine: a trivial tool called straight on a child, no hub at all.
const floor = await load(child.url, calls, 'echo', { text: 'hi' }, 'hi');

// The hub's own work for one list_servers, without HTTP and the SDK around it
// (list_servers reads no request context).
const listTool = benchHub.hub.metaTools.get('list_servers');
if (!listTool) throw new Error('list_servers is missing');
const handlerTimes: number[] = [];
for (let index = 0; index < calls; index += 1) {
  const started = performance.now();
  await listTool.call({}, {} as MetaToolContext);
  handlerTimes.push(performance.now() - started);
}
handlerTimes.sort((a, b) => a - b);
const childrenStarted = existsSync(startsFile);

const hubRounds: LoadFigures[] = [];
const endpointRounds: LoadFigures[] = [];
for (let round = 0; round < 3; round += 1) {
  hubRounds.push(await viaHub(calls));
  endpointRounds.push(await viaEndpoint(calls));
}
const callTool = bestOf(hubRounds);
const endpoint = bestOf(endpointRounds);

await benchHub.close();
child.stop();
await rm(scratch, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      listServers: {
        servers: SERVERS,
        ...listing,
        handlerP50Ms: Number(percentile(handlerTimes, 0.5).toFixed(3)),
        handlerP99Ms: Number(percentile(handlerTimes, 0.99).toFixed(3)),
        trivialCallStraightToAChildP50Ms: floor.p50Ms,
        sleepingServersStarted: childrenStarted ? 'some' : 0,
        targetP50Ms: 1,
      },
      callTool: { throughHub: callTool, throughEndpoint: endpoint, p50Ratio: Number((callTool.p50Ms / endpoint.p50Ms).toFixed(2)), targetRatio: 1.1 },
    },
    null,
    2,
  ),
);
