// Code mode: one task of 20 tool calls whose results are filtered to a few lines, done as
// 20 call_tool calls (what the model would read) and as one run_code, with the bytes
// returned to the model and the wall time of each; and the sandbox's start-up per run
// (in a worker of the pool, a fresh WebAssembly instance, runtime and context running
// `return 1`, the messages both ways included), p50 and p99.
// Rounds alternate the two ways so machine load hits both alike.
// Run: npx tsc -p . && node dist/bench/code-mode.js [rounds] [startups]
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { startBenchHub } from './bench-hub.js';
import { median, percentile } from './measure.js';
import { compileProgram } from '../plugins/code-mode/program.js';
import { SandboxPool } from '../plugins/code-mode/pool.js';

const rounds = Number(process.argv[2] ?? '20');
const startups = Number(process.argv[3] ?? '200');
const CALLS = 20;

/** A catalogue whose items carry a long description, as real tool results do; a few are on sale. */
function createCatalog(): McpServer {
  const server = new McpServer({ name: 'catalog', version: '1.0.0' });
  server.registerTool(
    'get_item',
    { description: 'One item of the catalogue', inputSchema: fromJsonSchema<{ id: number }>({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] }) },
    async ({ id }) => {
      const item = { id, name: `Item ${id}`, onSale: id % 7 === 0, price: 10 + id, description: `A fine item number ${id}. `.repeat(40) };
      return { content: [{ type: 'text', text: JSON.stringify(item) }] };
    },
  );
  return server;
}

const benchHub = await startBenchHub({ plugins: { 'oauth-as': false, 'map-tools': false, 'code-mode': true } });
benchHub.hub.children.addInProcess('catalog', createCatalog);
await benchHub.hub.children.get('catalog')?.ensureUp();
const client = new Client({ name: 'bench', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${benchHub.url}/hub`)));

const bytesOf = (result: unknown) => Buffer.byteLength(JSON.stringify(result));

async function oneByOne(): Promise<{ bytes: number; ms: number; lines: string[] }> {
  const started = performance.now();
  let bytes = 0;
  const lines: string[] = [];
  for (let id = 1; id <= CALLS; id++) {
    const result = (await client.callTool({ name: 'call_tool', arguments: { server: 'catalog', tool: 'get_item', arguments: { id } } })) as CallToolResult;
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
  const result = (await client.callTool({ name: 'run_code', arguments: { code: PROGRAM } })) as CallToolResult;
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
    },
    null,
    2,
  ),
);
