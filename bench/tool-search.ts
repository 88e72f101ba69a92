// tool-search figures: 100 servers with 2,000 tools in all (20 each, cycled from the 300
// real tool definitions of test/fixtures/tool-search), served in-process. search_tools
// p50/p99 through /hub against list_servers on the same hub (2026-07-28, one caller, from
// raw-client.ts in its own process); the search handler's own time over the judged
// queries; the index's build time and the heap it takes.
// Run on a quiet machine: npm run build && node --expose-gc dist/bench/tool-search.js [servers] [toolsPerServer] [calls]
import { Server, type Tool } from '@modelcontextprotocol/server';
import type { MetaToolContext } from '../core/mcp/meta-tool.js';
import { pluginHub } from '../core/plugin-hub.js';
import { ToolIndex } from '../plugins/tool-search/tool-index.js';
import { corpus, judgedQueries } from '../test/plugins/tool-search/corpus.js';
import { startBenchHub } from './bench-hub.js';
import { bestOf, percentile, rawLoad, type LoadFigures } from './measure.js';

const servers = Number(process.argv[2] ?? '100');
const toolsPerServer = Number(process.argv[3] ?? '20');
const calls = Number(process.argv[4] ?? '2000');
const real = corpus().flatMap((fixture) => fixture.tools);

const benchHub = await startBenchHub({ plugins: { 'oauth-as': false, 'map-tools': false, 'tool-search': true }, mcpServers: {} });
const base = benchHub.url;
for (let index = 0; index < servers; index += 1) {
  const tools: Tool[] = Array.from({ length: toolsPerServer }, (_, offset) => real[(index * toolsPerServer + offset) % real.length] as Tool);
  const child = benchHub.hub.children.addInProcess(`server-${index}`, () => {
    const server = new Server({ name: `server-${index}`, version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => ({ tools }));
    return server;
  });
  await child.ensureUp();
}

const load = (count: number, tool: string, args: Record<string, unknown>, expect: string) =>
  rawLoad({ url: `${base}/hub`, callers: 1, calls: count, warmup: Math.min(200, count), revision: '2026-07-28', tool, arguments: args, expect });
const rounds = async (run: () => Promise<LoadFigures>): Promise<LoadFigures> => {
  const figures: LoadFigures[] = [];
  for (let round = 0; round < 3; round += 1) figures.push(await run());
  return bestOf(figures);
};
const listServers = await rounds(() => load(calls, 'list_servers', {}, `server-${servers - 1}`));
const searchTools = await rounds(() => load(calls, 'search_tools', { query: 'create an issue in the repository' }, 'create_issue'));

// The handler alone (no HTTP, no SDK), over every judged query.
const tool = benchHub.hub.metaTools.get('search_tools');
if (!tool) throw new Error('search_tools is missing: is tool-search on?');
const context = { request: {} } as MetaToolContext;
const queries = judgedQueries().map((judged) => judged.query);
const handlerTimes: number[] = [];
for (let index = 0; index < Math.max(calls, queries.length); index += 1) {
  const started = performance.now();
  await tool.call({ query: queries[index % queries.length] }, context);
  handlerTimes.push(performance.now() - started);
}
handlerTimes.sort((a, b) => a - b);

// Fresh indexes over the same servers: the full build of each, and the heap one holds
// (five kept at once, after the garbage of the load runs is gone).
const gc = (globalThis as { gc?: () => void }).gc;
const views = pluginHub(benchHub.hub, 'bench').servers;
const buildTimes: number[] = [];
const kept: ToolIndex[] = [];
gc?.();
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
for (let round = 0; round < 5; round += 1) {
  const index = new ToolIndex(views);
  const started = performance.now();
  index.refresh();
  buildTimes.push(performance.now() - started);
  if (index.size !== servers * toolsPerServer) throw new Error(`indexed ${index.size} tools, not ${servers * toolsPerServer}`);
  kept.push(index);
}
gc?.();
const heapBytes = gc ? (process.memoryUsage().heapUsed - heapBefore) / kept.length : undefined;
buildTimes.sort((a, b) => a - b);

await benchHub.close();
console.log(
  JSON.stringify(
    {
      servers,
      tools: servers * toolsPerServer,
      listServers,
      searchTools,
      addedOverListServersP50Ms: Number((searchTools.p50Ms - listServers.p50Ms).toFixed(3)),
      targetAddedP50Ms: 2,
      handlerOverJudgedQueries: { p50Ms: Number(percentile(handlerTimes, 0.5).toFixed(3)), p99Ms: Number(percentile(handlerTimes, 0.99).toFixed(3)) },
      indexBuild: { medianMs: Number(percentile(buildTimes, 0.5).toFixed(2)), heapKiB: heapBytes === undefined ? 'run with --expose-gc' : Math.round(heapBytes / 1024) },
    },
    null,
    2,
  ),
);
