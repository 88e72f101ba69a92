// tool-search figures. First the relevance of issue 56: top-1, top-3 and MRR of the plugin's
// ranking, of the same without its hand-kept software vocabulary, and of a plain BM25 (name and
// description, no stemming, default parameters) on the same catalog (test/fixtures/tool-search/tools), for the judged set's development half, its
// test half and both; then the ranking's own time for 1,000 tools (every judged query, the
// first pass reading WordNet from disk, then warm) and the memory WordNet and its cache add once loaded,
// and the ranker's CPU per query at 2,000 tools.
// Then 100 servers with 2,000 tools in all (20 each, cycled from the real tool definitions
// of test/fixtures/tool-search), served in-process. search_tools
// p50/p99 through /hub against list_servers on the same hub (2026-07-28, one caller, from
// raw-client.ts in its own process); the search handler's own time over the judged
// queries; the index's build time and the heap it takes.
// Run on a quiet machine: npm run build && node --expose-gc dist/bench/tool-search.js [--relevance] [servers] [toolsPerServer] [calls]
// (--relevance: the first part only).
import { Server, type Tool } from '@modelcontextprotocol/server';
import type { MetaToolContext } from '../core/calls/meta-tool.js';
import { pluginHub } from '../core/plugin-hub.js';
import { ToolIndex } from '../plugins/tool-search/tool-index.js';
import { toolDocument } from '../plugins/tool-search/documents.js';
import { RANKING, Ranker } from '../plugins/tool-search/ranking.js';
import { corpus, judgedQueries } from '../test/plugins/tool-search/corpus.js';
import { baselineRank, judgedSet, pluginRank, score, type Scores } from '../test/plugins/tool-search/judged.js';
import { startBenchHub } from './bench-hub.js';
import { bestOf, percentile, rawLoad, type LoadFigures } from './measure.js';

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const servers = Number(positional[0] ?? '100');
const toolsPerServer = Number(positional[1] ?? '20');
const calls = Number(positional[2] ?? '2000');
const catalog = corpus();
const real = catalog.flatMap((fixture) => fixture.tools);
const gc = (globalThis as { gc?: () => void }).gc;

// Relevance, both rankings in this run.
const judged = judgedSet();
const baseline = baselineRank(catalog);
const plugin = pluginRank(catalog);
// The same ranking without the hand-kept software vocabulary (vocabulary.ts), which was written
// after the judged queries: WordNet, the fields and the weights alone.
const withoutVocabulary = pluginRank(catalog, { ...RANKING, expansion: { ...RANKING.expansion, software: 0 } });
const figures = (scores: Scores) => ({ top1: Number(scores.top1.toFixed(3)), top3: Number(scores.top3.toFixed(3)), mrr: Number(scores.mrr.toFixed(3)) });
const relevance = Object.fromEntries(
  (['dev', 'test', 'all'] as const).map((half) => {
    const queries = judged.filter((query) => half === 'all' || query.half === half);
    return [
      half,
      {
        queries: queries.length,
        plugin: figures(score(plugin.rank, queries)),
        pluginWithoutSoftwareVocabulary: figures(score(withoutVocabulary.rank, queries)),
        plainBm25: figures(score(baseline, queries)),
      },
    ];
  }),
);
plugin.ranker.close();
withoutVocabulary.ranker.close();

// The ranking alone for 1,000 tools (the catalog cycled, each copy a server of its own).
gc?.();
gc?.();
const memoryBefore = process.memoryUsage();
const thousand = new Ranker();
for (let copy = 0; thousand.documentCount < 1000; copy += 1) {
  for (const fixture of catalog) {
    const tools = fixture.tools.slice(0, 1000 - thousand.documentCount);
    thousand.addAll(tools.map((tool) => toolDocument(`${fixture.server}-${copy}`, fixture.server, tool)));
  }
}
gc?.();
const memoryIndexed = process.memoryUsage();
const rankTimes = (rounds: number): number[] => {
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const { query } of judged) {
      const started = performance.now();
      thousand.rank(query, () => true, 8);
      times.push(performance.now() - started);
    }
  }
  return times.sort((a, b) => a - b);
};
const cold = rankTimes(1);
const warm = rankTimes(5);
gc?.();
const memoryLoaded = process.memoryUsage();
const mib = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(2));
const ranking1000 = {
  tools: thousand.documentCount,
  firstPassP50Ms: Number(percentile(cold, 0.5).toFixed(3)),
  firstPassP99Ms: Number(percentile(cold, 0.99).toFixed(3)),
  warmP50Ms: Number(percentile(warm, 0.5).toFixed(3)),
  warmP99Ms: Number(percentile(warm, 0.99).toFixed(3)),
  targetP50Ms: 5,
  indexHeapMiB: gc ? mib(memoryIndexed.heapUsed - memoryBefore.heapUsed) : 'run with --expose-gc',
  wordnetAndCacheAddedMiB: gc
    ? { rss: mib(memoryLoaded.rss - memoryIndexed.rss), heap: mib(memoryLoaded.heapUsed - memoryIndexed.heapUsed), external: mib(memoryLoaded.external - memoryIndexed.external) }
    : 'run with --expose-gc',
  targetAddedMiB: 15,
};
thousand.close();

// The ranker's CPU (user + system, not wall: a shared machine's load stretches wall time) per
// judged query at 2,000 tools, WordNet already read: with each term's hits kept, and with them
// recomputed for every query (as after any change to the index).
const twoThousand = new Ranker();
for (let copy = 0; twoThousand.documentCount < 2000; copy += 1) {
  for (const fixture of catalog) twoThousand.addAll(fixture.tools.slice(0, 2000 - twoThousand.documentCount).map((tool) => toolDocument(`${fixture.server}-${copy}`, fixture.server, tool)));
}
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const cpuPerQuery = (rounds: number, recompute: boolean): number => {
  const started = cpuMs();
  for (let round = 0; round < rounds; round += 1) {
    for (const { query } of judged) {
      if (recompute) twoThousand.discardAll([]);
      twoThousand.rank(query, () => true, 8);
    }
  }
  return Number(((cpuMs() - started) / (rounds * judged.length)).toFixed(3));
};
cpuPerQuery(1, false);
const ranking2000 = { tools: twoThousand.documentCount, cpuMsPerQueryHitsKept: cpuPerQuery(5, false), cpuMsPerQueryHitsRecomputed: cpuPerQuery(3, true) };
twoThousand.close();
process.stdout.write(`${JSON.stringify({ catalog: { servers: catalog.length, tools: real.length }, relevance, ranking1000, ranking2000 }, null, 2)}\n`);
if (process.argv.includes('--relevance')) process.exit(0);

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
