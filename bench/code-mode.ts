// Code mode: one task of 20 tool calls whose results are filtered to a few lines, done as
// 20 call_tool calls (what the model would read) and as one run_code, with the bytes
// returned to the model and the wall time of each; and the sandbox's start-up per run
// (in a worker of the pool, a fresh WebAssembly instance, runtime and context running
// `return 1`, the messages both ways included), p50 and p99.
// Rounds alternate the two ways so machine load hits both alike.
// Then (issue 53) the bytes of a tool's declaration against its JSON definition, over the
// real tool lists of 25 public servers (test/fixtures/tool-search), and five tasks done
// three ways: without code mode (get_tool_schema for each tool used, then call_tool for
// each call), with code mode reading the servers' API (get_code_api of the servers used,
// then run_code, or get_code_api of the tools used alone), and with search_tools withCode
// (one search of limit 3 per tool used, then run_code): round trips, bytes of results and
// of API read, wall time (medians of rounds). The tasks' three servers are small (one or
// two tools each); the 25 real servers are in the hub, so that search ranks among 349 tools.
// Run: npx tsc -p . && node dist/bench/code-mode.js [rounds] [startups] [taskRounds]
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { startBenchHub } from './bench-hub.js';
import { median, percentile } from './measure.js';
import { compileProgram } from '../plugins/code-mode/program.js';
import { SandboxPool } from '../plugins/code-mode/pool.js';
import { toolDeclaration } from '../plugins/code-mode/tool-declaration.js';
import type { MetaToolContext } from '../core/plugin/index.js';
import { servedRevisions } from '../core/revisions/served-revision.js';
import { createOrders, createPeople } from '../test/fixtures/servers/directory.js';
import { corpus, listingServer } from '../test/plugins/tool-search/corpus.js';

const rounds = Number(process.argv[2] ?? '20');
const startups = Number(process.argv[3] ?? '200');
const taskRounds = Number(process.argv[4] ?? '5');
const CALLS = 20;

/** A catalogue whose items carry a long description, as real tool results do; a few are on sale. */
function createCatalog(): McpServer {
  const server = new McpServer({ name: 'catalog', version: '1.0.0' });
  server.registerTool(
    'get_item',
    { description: 'One item of the catalogue', inputSchema: fromJsonSchema<{ id: number }>({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }) },
    async ({ id }) => {
      const item = { id, name: `Item ${id}`, onSale: id % 7 === 0, price: 10 + ((id * 37) % 50), description: `A fine item number ${id}. `.repeat(40) };
      return { content: [{ type: 'text', text: JSON.stringify(item) }] };
    },
  );
  server.registerTool(
    'find_items',
    {
      description: 'The ids of the catalogue items whose name has a word (lamp, chair, desk)',
      inputSchema: fromJsonSchema<{ word: string }>({ type: 'object', properties: { word: { type: 'string', description: 'One word of the item name' } }, required: ['word'] }),
      outputSchema: fromJsonSchema<{ ids: number[] }>({ type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } }, required: ['ids'] }),
    },
    async ({ word }) => {
      const ids = Array.from({ length: 40 }, (_, index) => index + 1).filter((id) => ['lamp', 'chair', 'desk'][id % 5] === word);
      return { content: [{ type: 'text', text: JSON.stringify({ ids }) }], structuredContent: { ids } };
    },
  );
  return server;
}

const benchHub = await startBenchHub({ plugins: { 'oauth-as': false, 'map-tools': false, 'code-mode': true, 'tool-search': true } });
benchHub.hub.children.addInProcess('catalog', createCatalog);
benchHub.hub.children.addInProcess('people', createPeople);
benchHub.hub.children.addInProcess('orders-db', createOrders);
const realServers = corpus();
for (const fixture of realServers) benchHub.hub.children.addInProcess(fixture.server, listingServer(fixture));
await Promise.all(benchHub.hub.children.all().map((child) => child.ensureUp()));
const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${benchHub.url}/hub`)));

const bytesOf = (result: unknown) => Buffer.byteLength(JSON.stringify(result));

async function oneByOne(): Promise<{ bytes: number; ms: number; lines: string[] }> {
  const started = performance.now();
  let bytes = 0;
  const lines: string[] = [];
  for (let id = 1; id <= CALLS; id++) {
    const result = await client.callTool({ name: 'call_tool', arguments: { server: 'catalog', tool: 'get_item', arguments: { id } } });
    bytes += bytesOf(result);
    const [block] = result.content;
    const item = JSON.parse(block?.type === 'text' ? block.text : '{}') as { name: string; onSale: boolean; price: number };
    if (item.onSale) lines.push(`${item.name}: ${item.price}`);
  }
  return { bytes, ms: performance.now() - started, lines };
}

const PROGRAM = `
const ids = Array.from({ length: ${CALLS} }, (_, index) => index + 1);
const items = await Promise.all(ids.map((id) => servers.catalog.get_item({ id })));
for (const text of items) {
  const item = JSON.parse(text) as { name: string; onSale: boolean; price: number };
  if (item.onSale) console.log(\`\${item.name}: \${item.price}\`);
}`;

async function asProgram(): Promise<{ bytes: number; ms: number; lines: string[] }> {
  const started = performance.now();
  const result = await client.callTool({ name: 'run_code', arguments: { code: PROGRAM } });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(JSON.stringify(result.content));
  const { output } = result.structuredContent as { output: string };
  return { bytes: bytesOf(result), ms, lines: output.trim().split('\n') };
}

const direct = { bytes: [] as number[], ms: [] as number[] };
const program = { bytes: [] as number[], ms: [] as number[] };
await asProgram(); // compiles QuickJS's WebAssembly once, as the first run in a process does
for (let round = 0; round < rounds; round++) {
  const a = await oneByOne();
  const b = await asProgram();
  if (a.lines.join('\n') !== b.lines.join('\n')) throw new Error(`the two ways disagree: ${a.lines.join('|')} vs ${b.lines.join('|')}`);
  direct.bytes.push(a.bytes);
  direct.ms.push(a.ms);
  program.bytes.push(b.bytes);
  program.ms.push(b.ms);
}

// Bytes per declaration, against the tool's JSON definition as tools/list gives it.
const served = servedRevisions(benchHub.hub.revisions.values()).find((revision) => revision.revision === '2026-07-28');
if (!served) throw new Error('no 2026-07-28 revision');
const declarationContext = { revision: served } as MetaToolContext;
let schemaBytes = 0;
let declarationBytes = 0;
let serverApiBytes = 0;
const ratios: number[] = [];
for (const fixture of realServers) {
  for (const tool of fixture.tools) {
    const json = Buffer.byteLength(JSON.stringify(tool));
    const declared = Buffer.byteLength(toolDeclaration(fixture.server, tool, declarationContext));
    schemaBytes += json;
    declarationBytes += declared;
    ratios.push(declared / json);
  }
  serverApiBytes += bytesOf(await client.callTool({ name: 'get_code_api', arguments: { servers: [fixture.server] } }));
}
ratios.sort((a, b) => a - b);
const toolCount = ratios.length;

interface Task {
  name: string;
  /** The tools it uses, and the words a model would search each by. */
  uses: { server: string; tool: string; query: string }[];
  /** The calls without code mode: each tool call through call_tool, then the answer. */
  direct(call: (server: string, tool: string, args: Record<string, unknown>) => Promise<CallToolResult>): Promise<string>;
  program: string;
}
const itemOf = (result: CallToolResult) => JSON.parse(result.content[0]?.type === 'text' ? result.content[0].text : '{}') as { name: string; onSale: boolean; price: number };
const range = (n: number) => Array.from({ length: n }, (_, index) => index + 1);
const TASKS: Task[] = [
  {
    name: 'items on sale among 20',
    uses: [{ server: 'catalog', tool: 'get_item', query: 'catalogue item' }],
    direct: async (call) =>
      (await Promise.all(range(20).map(async (id) => itemOf(await call('catalog', 'get_item', { id })))))
        .filter((item) => item.onSale)
        .map((item) => item.name)
        .join(', '),
    program:
      'const items = await Promise.all(Array.from({ length: 20 }, (_, i) => servers.catalog.get_item({ id: i + 1 })));\nreturn items.map((text) => JSON.parse(text)).filter((item) => item.onSale).map((item) => item.name).join(", ");',
  },
  {
    name: 'orders of the London staff',
    uses: [
      { server: 'people', tool: 'list_people', query: 'staff people city' },
      { server: 'orders-db', tool: 'orders-for', query: 'orders of a person' },
    ],
    direct: async (call) => {
      const { people } = (await call('people', 'list_people', { city: 'London' })).structuredContent as { people: { id: number; name: string }[] };
      const lines = [];
      for (const person of people)
        lines.push(
          `${person.name}: ${(await call('orders-db', 'orders-for', { personId: person.id })).content
            .map((block) => (block.type === 'text' ? block.text : ''))
            .join('')
            .split('\n')
            .join(' ')}`,
        );
      return lines.join('; ');
    },
    program:
      'const { people } = await servers.people.list_people({ city: "London" });\nconst lines = [];\nfor (const person of people) lines.push(`${person.name}: ${(await servers["orders-db"]["orders-for"]({ personId: person.id })).split("\\n").join(" ")}`);\nreturn lines.join("; ");',
  },
  {
    name: 'staff without orders',
    uses: [
      { server: 'people', tool: 'list_people', query: 'staff people' },
      { server: 'orders-db', tool: 'orders-for', query: 'orders of a person' },
    ],
    direct: async (call) => {
      const { people } = (await call('people', 'list_people', {})).structuredContent as { people: { id: number; name: string }[] };
      const none = [];
      for (const person of people) if ((await call('orders-db', 'orders-for', { personId: person.id })).content.every((block) => block.type === 'text' && block.text === '')) none.push(person.name);
      return none.join(', ');
    },
    program:
      'const { people } = await servers.people.list_people();\nconst none = [];\nfor (const person of people) if ((await servers["orders-db"]["orders-for"]({ personId: person.id })) === "") none.push(person.name);\nreturn none.join(", ");',
  },
  {
    name: 'total price of the lamps',
    uses: [
      { server: 'catalog', tool: 'find_items', query: 'find catalogue items by word' },
      { server: 'catalog', tool: 'get_item', query: 'catalogue item' },
    ],
    direct: async (call) => {
      const { ids } = (await call('catalog', 'find_items', { word: 'lamp' })).structuredContent as { ids: number[] };
      return String((await Promise.all(ids.map(async (id) => itemOf(await call('catalog', 'get_item', { id }))))).reduce((sum, item) => sum + item.price, 0));
    },
    program:
      'const { ids } = await servers.catalog.find_items({ word: "lamp" });\nconst items = await Promise.all(ids.map((id) => servers.catalog.get_item({ id })));\nreturn String(items.reduce((sum, text) => sum + JSON.parse(text).price, 0));',
  },
  {
    name: 'cheapest item on sale among 40',
    uses: [{ server: 'catalog', tool: 'get_item', query: 'catalogue item price' }],
    direct: async (call) => {
      const items = await Promise.all(range(40).map(async (id) => itemOf(await call('catalog', 'get_item', { id }))));
      const sale = items.filter((item) => item.onSale).sort((a, b) => a.price - b.price);
      return `${sale[0]?.name} at ${sale[0]?.price}`;
    },
    program:
      'const items = (await Promise.all(Array.from({ length: 40 }, (_, i) => servers.catalog.get_item({ id: i + 1 })))).map((text) => JSON.parse(text));\nconst sale = items.filter((item) => item.onSale).sort((a, b) => a.price - b.price);\nreturn `${sale[0]?.name} at ${sale[0]?.price}`;',
  },
];

interface Way {
  roundTrips: number;
  resultBytes: number;
  apiBytes: number;
  ms: number;
}
async function measured(name: string, args: Record<string, unknown>, into: { bytes: number; trips: number }): Promise<CallToolResult> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  into.bytes += bytesOf(result);
  into.trips += 1;
  return result;
}
const distinct = <T>(values: T[]) => [...new Set(values)];
async function runProgramOf(task: Task, api: { bytes: number; trips: number }, started: number): Promise<{ way: Way; value: unknown }> {
  const results = { bytes: 0, trips: 0 };
  const result = await measured('run_code', { code: task.program }, results);
  return {
    way: { roundTrips: api.trips + results.trips, resultBytes: results.bytes, apiBytes: api.bytes, ms: performance.now() - started },
    value: (result.structuredContent as { value?: unknown }).value,
  };
}
async function withoutCodeMode(task: Task): Promise<{ way: Way; value: string }> {
  const started = performance.now();
  const api = { bytes: 0, trips: 0 };
  const results = { bytes: 0, trips: 0 };
  for (const key of distinct(task.uses.map((use) => `${use.server}/${use.tool}`))) {
    const [server, tool] = key.split('/');
    await measured('get_tool_schema', { server, tool }, api);
  }
  const value = await task.direct((server, tool, args) => measured('call_tool', { server, tool, arguments: args }, results));
  return { way: { roundTrips: api.trips + results.trips, resultBytes: results.bytes, apiBytes: api.bytes, ms: performance.now() - started }, value };
}
async function withCodeApi(task: Task) {
  const started = performance.now();
  const api = { bytes: 0, trips: 0 };
  await measured('get_code_api', { servers: distinct(task.uses.map((use) => use.server)) }, api);
  return runProgramOf(task, api, started);
}
async function withCodeApiOfTools(task: Task) {
  const started = performance.now();
  const api = { bytes: 0, trips: 0 };
  await measured('get_code_api', { tools: distinct(task.uses.map((use) => `${use.server}/${use.tool}`)) }, api);
  return runProgramOf(task, api, started);
}
async function withSearch(task: Task) {
  const started = performance.now();
  const api = { bytes: 0, trips: 0 };
  for (const use of task.uses) {
    const found = await measured('search_tools', { query: use.query, limit: 3, withCode: true }, api);
    const hits = (found.structuredContent as { tools: { server: string; tool: string; code?: string }[] }).tools;
    if (!hits.some((hit) => hit.server === use.server && hit.tool === use.tool && hit.code !== undefined))
      throw new Error(`"${use.query}" did not find ${use.server}/${use.tool} in its first 3: ${hits.map((hit) => `${hit.server}/${hit.tool}`).join(', ')}`);
  }
  return runProgramOf(task, api, started);
}
const ways = { withoutCodeMode: [] as Way[][], codeApi: [] as Way[][], codeApiOfTools: [] as Way[][], searchWithCode: [] as Way[][] };
for (let round = 0; round < taskRounds; round++) {
  const rows = { withoutCodeMode: [] as Way[], codeApi: [] as Way[], codeApiOfTools: [] as Way[], searchWithCode: [] as Way[] };
  for (const task of TASKS) {
    const a = await withoutCodeMode(task);
    const b = await withCodeApi(task);
    const c = await withSearch(task);
    const d = await withCodeApiOfTools(task);
    if (b.value !== a.value || c.value !== a.value || d.value !== a.value)
      throw new Error(`${task.name}: the ways disagree: ${a.value} | ${String(b.value)} | ${String(c.value)} | ${String(d.value)}`);
    rows.codeApiOfTools.push(d.way);
    rows.withoutCodeMode.push(a.way);
    rows.codeApi.push(b.way);
    rows.searchWithCode.push(c.way);
  }
  for (const key of Object.keys(rows) as (keyof typeof rows)[]) ways[key].push(rows[key]);
}
/** Per task, the median over rounds; and the five tasks' sums. */
const summary = (rounds: Way[][]) => {
  const perTask = TASKS.map((task, index) => {
    const of = (pick: (way: Way) => number) => median(rounds.map((row) => pick(row[index] as Way)));
    return { task: task.name, roundTrips: of((way) => way.roundTrips), resultBytes: of((way) => way.resultBytes), apiBytes: of((way) => way.apiBytes), wallMs: Math.round(of((way) => way.ms)) };
  });
  const sum = (pick: (row: (typeof perTask)[number]) => number) => perTask.reduce((total, row) => total + pick(row), 0);
  return {
    total: {
      roundTrips: sum((row) => row.roundTrips),
      resultBytes: sum((row) => row.resultBytes),
      apiBytes: sum((row) => row.apiBytes),
      bytesToModel: sum((row) => row.resultBytes + row.apiBytes),
      wallMs: sum((row) => row.wallMs),
    },
    perTask,
  };
};

await client.close();
await benchHub.close();

const compiled = compileProgram('return 1');
if (!compiled.ok) throw new Error(compiled.error);
const limits = { memoryBytes: 64 * 1024 * 1024, stackBytes: 512 * 1024, timeoutMs: 30_000, maxToolCalls: 50, maxOutputBytes: 65_536, maxResultBytes: 262_144 };
const pool = new SandboxPool(64);
const startupTimes: number[] = [];
for (let run = 0; run < startups; run++) {
  const started = performance.now();
  const outcome = await pool.run({ code: compiled.code, limits, serverNames: [], call: async () => ({ json: 'null' }), cancel: new AbortController().signal });
  startupTimes.push(performance.now() - started);
  if (!outcome.ok) throw new Error(outcome.error);
}
await pool.close();
startupTimes.sort((a, b) => a - b);

const round1 = (value: number) => Math.round(value * 10) / 10;
console.log(
  JSON.stringify(
    {
      rounds,
      calls: CALLS,
      callTool: { bytesReturned: median(direct.bytes), wallMsMedian: round1(median(direct.ms)) },
      runCode: { bytesReturned: median(program.bytes), wallMsMedian: round1(median(program.ms)) },
      sandboxStartup: { runs: startups, p50Ms: round1(percentile(startupTimes, 0.5)), p99Ms: round1(percentile(startupTimes, 0.99)) },
      declarations: {
        servers: realServers.length,
        tools: toolCount,
        jsonDefinitionBytesPerTool: Math.round(schemaBytes / toolCount),
        declarationBytesPerTool: Math.round(declarationBytes / toolCount),
        declarationOverJson: {
          whole: Math.round((declarationBytes / schemaBytes) * 100) / 100,
          p50: Math.round(percentile(ratios, 0.5) * 100) / 100,
          p90: Math.round(percentile(ratios, 0.9) * 100) / 100,
        },
        getCodeApiOfEachServer: { bytes: serverApiBytes, overJsonDefinitions: Math.round((serverApiBytes / schemaBytes) * 100) / 100 },
      },
      fiveTasks: {
        rounds: taskRounds,
        withoutCodeMode: summary(ways.withoutCodeMode),
        codeModeGetCodeApi: summary(ways.codeApi),
        codeModeGetCodeApiOfTools: summary(ways.codeApiOfTools),
        codeModeSearchWithCode: summary(ways.searchWithCode),
      },
    },
    null,
    2,
  ),
);
