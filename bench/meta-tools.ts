// /hub figures: list_servers with 200 configured stdio servers, all asleep (and the
// proof that none was started), then call_tool through /hub versus the same tool through
// /<name>/mcp, as the ratio of p50 latencies. 2026-07-28, one caller.
// Run: npx tsc -p . && node dist/bench/meta-tools.js [calls]
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Fastify from 'fastify';
import { hub } from '../core/kernel.js';
import { runLoad, startHttpChild, type LoadFigures } from './measure.js';

const calls = Number(process.argv[2] ?? '2000');
const SERVERS = 200;
const fixture = fileURLToPath(new URL('../test/fixtures/children/crashy.js', import.meta.url));
const dataPath = await mkdtemp(join(tmpdir(), 'bench-meta-'));
const startsFile = join(dataPath, 'starts');
const child = await startHttpChild();

const mcpServers: Record<string, unknown> = { echo: { type: 'http', url: child.url } };
for (let index = 0; index < SERVERS - 1; index += 1) {
  mcpServers[`sleeper-${index}`] = { command: process.execPath, args: [fixture], env: { FIXTURE_STARTS: startsFile } };
}
const app = Fastify({ logger: false });
await app.register(hub, { config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers }, env: { DATA_PATH: dataPath }, settings: { dataPath } });
const base = await app.listen({ host: '127.0.0.1', port: 0 });

const caller = (path: string, call: (client: Client) => Promise<unknown>) => async () => {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`)));
  return () => call(client);
};
const listServers = caller('/hub', (client) => client.callTool({ name: 'list_servers', arguments: {} }));
const viaHub = caller('/hub', (client) => client.callTool({ name: 'call_tool', arguments: { server: 'echo', tool: 'echo', arguments: { text: 'hi' } } }));
const viaEndpoint = caller('/echo/mcp', (client) => client.callTool({ name: 'echo', arguments: { text: 'hi' } }));

await runLoad(1, 200, listServers);
const listing = await runLoad(1, calls, listServers);
const childrenStarted = existsSync(startsFile);

await runLoad(1, 200, viaHub);
await runLoad(1, 200, viaEndpoint);
const hubRounds: LoadFigures[] = [];
const endpointRounds: LoadFigures[] = [];
for (let round = 0; round < 3; round += 1) {
  hubRounds.push(await runLoad(1, calls, viaHub));
  endpointRounds.push(await runLoad(1, calls, viaEndpoint));
}
const best = (rounds: LoadFigures[]): LoadFigures => rounds.reduce((a, b) => (b.p50Ms < a.p50Ms ? b : a));
const callTool = best(hubRounds);
const endpoint = best(endpointRounds);

await app.close();
child.stop();
await rm(dataPath, { recursive: true, force: true });
console.log(
  JSON.stringify(
    {
      listServers: { servers: SERVERS, ...listing, sleepingServersStarted: childrenStarted ? 'some' : 0, targetP50Ms: 2 },
      callTool: { throughHub: callTool, throughEndpoint: endpoint, p50Ratio: Number((callTool.p50Ms / endpoint.p50Ms).toFixed(2)), targetRatio: 1.1 },
    },
    null,
    2,
  ),
);
