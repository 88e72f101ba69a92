// A bounded fuzz of the MCP endpoints: mutated JSON-RPC requests, on both revisions, to /hub and /map/mcp of
// a real hub process (oauth-as on, an API token, the map tools offline on Monaco). Prints, per endpoint and
// revision and in total: hub exits, HTTP 5xx, answers that are not JSON-RPC, hangs, and the hub's RSS before
// after, and after `rest` seconds without requests (what a fuzz leaves behind, issue 42: at most 1.3x before).
// `--full-gc` then makes a full collection in the hub (through its inspector, see inspector.ts) and prints its RSS and
// heap used after it: what the hub holds, against what V8 and malloc have not given back. `--snapshots <dir>` then
// takes a heap snapshot of the hub into <dir> and prints the top of it (heap-snapshots.ts), last, as it grows the hub.
// Not a test: a figure to read. Run after a build:
//   node dist/bench/fuzz.js [requests=100000] [seed=1] [concurrency=16] [rest=60] [--full-gc] [--snapshots <dir>]
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { freePort } from '../test/helpers/net.js';
import { snapshotAndSummarize, snapshotArgs } from './heap-snapshots.js';
import { npmStart } from './hub-bin.js';
import { collectGarbage, INSPECT_PORT_ARG, openInspector } from './inspector.js';
import { IDLE_CHECK_MS } from '../core/cli/idle-collection.js';
import { benchCommandLine } from './command-line.js';

const USAGE = 'Usage: node dist/bench/fuzz.js [requests=100000] [seed=1] [concurrency=16] [rest=60] [--full-gc] [--snapshots <dir>]';
const { values: flags, positionals } = benchCommandLine({ allowPositionals: true, options: { 'full-gc': { type: 'boolean', default: false }, snapshots: { type: 'string' } } }, USAGE);
const fullGc = flags['full-gc'];
const [requests = 100_000, runSeed = 1, concurrency = 16, restSeconds = 60] = positionals.map(Number);
/** An answer slower than this is a hang: nothing the fuzz sends should take a child that long. */
const HANG_MS = 30_000;
/** The standalone hub's body limit: a larger body is refused with 413 before it is read. */
const BODY_LIMIT = 4 * 1024 * 1024;
const REVISIONS = ['2026-07-28', '2025-11-25'] as const;
type Revision = (typeof REVISIONS)[number];
const ENDPOINTS = ['/hub', '/map/mcp'] as const;
const MONACO = fileURLToPath(new URL('../../test/fixtures/osm/monaco.osm.pbf', import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../core/cli/${name}.js`, import.meta.url));

/** A small deterministic generator (mulberry32), so a seed reproduces a run. */
let state = runSeed >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[below(items.length)] as T;

// ---- the hub under fuzz -------------------------------------------------------------------------------------

const folder = await mkdtemp(join(tmpdir(), 'fuzz-hub-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const config = join(folder, 'mcp.json');
await writeFile(config, JSON.stringify({ mcpServers: {}, plugins: { 'map-tools': true } }));
const env = {
  ...process.env,
  HOST: '127.0.0.1',
  PORT: String(port),
  BASE_URL: url,
  DATA_PATH: join(folder, 'data'),
  HUB_CONFIG: config,
  HUB_PASSWORD: 'fuzz',
  LOG_LEVEL: 'fatal',
  MAP_OSM_FILE: MONACO,
  // The fuzz is one client: its limits are lifted so that every request reaches the endpoints.
  CLIENT_CALLS_PER_MINUTE: String(1e9),
  CLIENT_MAX_CONCURRENT: String(concurrency * 2),
};

let hub: ChildProcess | undefined;
let exits = 0;
let stopping = false;
process.on('exit', () => hub?.kill('SIGKILL'));
async function startHub(): Promise<void> {
  const start = npmStart();
  // With --full-gc its stderr is read for the inspector's address, and passed on.
  const child = spawn(process.execPath, [...start.nodeArgs, ...(fullGc ? [INSPECT_PORT_ARG] : []), ...(flags.snapshots ? snapshotArgs(flags.snapshots) : []), bin('hub')], {
    env: { ...env, ...start.env },
    stdio: ['ignore', 'ignore', fullGc ? 'pipe' : 'inherit'],
  });
  child.stderr?.pipe(process.stderr);
  hub = child;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    exits += 1;
    process.stdout.write(`hub exited (${code ?? signal}); restarting\n`);
    void startHub();
  });
  for (let attempt = 0; attempt < 600; attempt++) {
    if (
      await fetch(`${url}/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the hub did not answer /health within 60 s');
}
/** The hub's V8 heap in use, in MiB, from its default process metrics (observability is on by default). */
const heapUsedMiB = async (): Promise<number> => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes\S* (\S+)/m.exec(text)?.[1]) / 1048576;
};
const rssKiB = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${hub?.pid}/status`, 'utf8'))?.[1] ?? Number.NaN);

// ---- seeds: valid requests of each revision -----------------------------------------------------------------

const place = () => pick(['43.7384,7.4246', '43.7311,7.4197', 'Casino de Monte-Carlo', 'Port Hercule', 'Monaco']);
const mapCalls = (): [string, Record<string, unknown>] =>
  pick<[string, Record<string, unknown>]>([
    ['straight_line_distance', { from: place(), to: place() }],
    ['geocode', { query: place() }],
    ['reverse_geocode', { latitude: 43.7384, longitude: 7.4246 }],
    ['map_link', { place: place() }],
    ['find_nearby_pois', { near: place(), category: 'cafe', radius_m: 300 }],
    ['route', { waypoints: [place(), place()], profile: 'foot' }],
  ]);

function seedRequest(endpoint: string, revision: Revision): { method: string; params: Record<string, unknown> } {
  const call = (): { method: string; params: Record<string, unknown> } => {
    const [tool, args] = mapCalls();
    if (endpoint === '/map/mcp') return { method: 'tools/call', params: { name: tool, arguments: args } };
    return pick([
      { method: 'tools/call', params: { name: 'list_servers', arguments: {} } },
      { method: 'tools/call', params: { name: 'list_tools', arguments: { server: 'map' } } },
      { method: 'tools/call', params: { name: 'get_tool_schema', arguments: { server: 'map', tool } } },
      { method: 'tools/call', params: { name: 'call_tool', arguments: { server: 'map', tool, arguments: args } } },
    ]);
  };
  const common = [
    { method: 'tools/list', params: {} },
    { method: 'ping', params: {} },
    { method: 'resources/list', params: {} },
    { method: 'prompts/list', params: {} },
    { method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: 'b' } } },
    { method: 'logging/setLevel', params: { level: 'debug' } },
  ];
  const own =
    revision === '2026-07-28'
      ? [{ method: 'server/discover', params: {} }]
      : [
          { method: 'initialize', params: { protocolVersion: revision, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } },
          { method: 'notifications/initialized', params: {} },
        ];
  return random() < 0.5 ? call() : pick([...common, ...own]);
}

function seed(endpoint: string, revision: Revision): { body: Record<string, unknown>; headers: Record<string, string> } {
  const { method, params } = seedRequest(endpoint, revision);
  const modern = revision === '2026-07-28';
  const envelope = { 'io.modelcontextprotocol/protocolVersion': revision, 'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const body: Record<string, unknown> = { jsonrpc: '2.0', ...(method.startsWith('notifications/') ? {} : { id: below(1e6) }), method, params: modern ? { ...params, _meta: envelope } : params };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': revision,
    ...(modern && { 'mcp-method': method }),
    ...(modern && method === 'tools/call' && { 'mcp-name': String(params.name) }),
  };
  return { body, headers };
}

// ---- mutations ----------------------------------------------------------------------------------------------

const WEIRD_STRINGS = ['', ' ', '\u0000', '\ud800', '💥'.repeat(100), '%s%n', '../../etc/passwd', '<script>', 'x'.repeat(70_000), 'subscriptions/unlisten', 'tools/call', '__proto__', 'constructor'];
function randomValue(depth = 0): unknown {
  switch (below(depth > 2 ? 7 : 10)) {
    case 0:
      return null;
    case 1:
      return pick([0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, Number.MIN_VALUE]);
    case 2:
      return pick([true, false]);
    case 3:
      return pick(WEIRD_STRINGS);
    case 4:
      return String.fromCharCode(...Array.from({ length: below(40) }, () => below(0x3000)));
    case 5:
      return below(1e9);
    case 6:
      return 'a';
    case 7:
      return Array.from({ length: below(5) }, () => randomValue(depth + 1));
    case 8:
      return Object.fromEntries(Array.from({ length: below(5) }, () => [pick(['id', 'method', 'params', '_meta', 'name', 'arguments', 'x', '__proto__']), randomValue(depth + 1)]));
    default:
      return `${DEEP}${1 + below(20_000)}`;
  }
}

/** Stands for JSON nested thousands deep, deeper than JSON.stringify goes: written out as text afterwards. */
const DEEP = '\u0000deep:';
function withDeepNesting(text: string): string {
  return text.replace(/"\\u0000deep:(\d+)"/g, (_marker, depth: string) => {
    const levels = Array.from({ length: Number(depth) }, () => (random() < 0.5 ? ['[', ']'] : ['{"a":', '}']));
    return `${levels.map(([open]) => open).join('')}1${levels
      .map(([, close]) => close)
      .reverse()
      .join('')}`;
  });
}

/** Every path to a value inside `value`, for a structural mutation to pick from. */
function paths(value: unknown, prefix: (string | number)[] = [], found: (string | number)[][] = []): (string | number)[][] {
  found.push(prefix);
  if (prefix.length < 6 && typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) paths(child, [...prefix, Array.isArray(value) ? Number(key) : key], found);
  }
  return found;
}
function setAt(root: Record<string, unknown>, path: (string | number)[], value: unknown, remove: boolean): unknown {
  if (path.length === 0) return value;
  let node = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (remove) delete node[last];
  else node[last] = value;
  return root;
}

function structural(body: Record<string, unknown>): unknown {
  let result: unknown = structuredClone(body);
  for (let count = 1 + below(3); count > 0; count--) {
    if (typeof result !== 'object' || result === null) break;
    const path = pick(paths(result));
    result = setAt(result as Record<string, unknown>, path, randomValue(), random() < 0.2 && path.length > 0);
  }
  return random() < 0.05 ? [result, result] : result;
}

function bytewise(text: string): string {
  let bytes = Buffer.from(text);
  for (let count = 1 + below(4); count > 0; count--) {
    const at = below(bytes.length + 1);
    switch (below(5)) {
      case 0:
        if (bytes.length > 0) bytes[Math.min(at, bytes.length - 1)] = below(256);
        break;
      case 1:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1 + below(20))]);
        break;
      case 2:
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(Array.from({ length: 1 + below(8) }, () => below(256))), bytes.subarray(at)]);
        break;
      case 3:
        bytes = bytes.subarray(0, at);
        break;
      default:
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(['{', '}', '[', ']', '"', ',', ':', '\\', 'null', '1e999'])), bytes.subarray(at)]);
    }
  }
  return bytes.toString('latin1');
}

function mutate(endpoint: string, revision: Revision): { method: string; headers: Record<string, string>; body: string | Buffer | undefined } {
  const { body, headers } = seed(endpoint, revision);
  let text = JSON.stringify(body);
  const roll = random();
  if (roll < 0.45) text = withDeepNesting(JSON.stringify(structural(body)));
  else if (roll < 0.8) text = bytewise(text);
  else if (roll < 0.83) text = '';
  else if (roll < 0.835) text = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'y'.repeat(4.5 * 1024 * 1024)}"}}`;
  const mutatedHeaders = { ...headers };
  if (random() < 0.15) {
    const header = pick(['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name']);
    const value = pick([undefined, '', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '*/*', 'text/html', '2024-01-01', 'tools/list', 'x'.repeat(2000), '\t']);
    if (value === undefined) delete mutatedHeaders[header];
    else mutatedHeaders[header] = value;
  }
  const method = random() < 0.03 ? pick(['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) : 'POST';
  return { method, headers: mutatedHeaders, body: method === 'GET' || method === 'OPTIONS' ? undefined : Buffer.from(text, 'latin1') };
}

// ---- judging an answer ----------------------------------------------------------------------------------------

function isJsonRpcAnswer(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isJsonRpcAnswer);
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0' || !('id' in message)) return false;
  if ('result' in message) return typeof message.result === 'object' && message.result !== null;
  const error = message.error;
  return typeof error === 'object' && error !== null && 'code' in error && Number.isInteger(error.code) && 'message' in error && typeof error.message === 'string';
}

/** The answer's verdict: JSON-RPC (a JSON body, or the last message of an event stream), or why not. */
function judge(status: number, contentType: string, text: string): string {
  if (status === 202 && text === '') return 'accepted';
  try {
    if (contentType.startsWith('text/event-stream')) {
      const last = [...text.matchAll(/^data: (.*)$/gm)].at(-1)?.[1];
      return last !== undefined && isJsonRpcAnswer(JSON.parse(last)) ? 'json-rpc' : `${status} event stream without a JSON-RPC answer`;
    }
    return isJsonRpcAnswer(JSON.parse(text)) ? 'json-rpc' : `${status} ${contentType || 'no type'}: ${text.slice(0, 120)}`;
  } catch {
    return `${status} ${contentType || 'no type'}: ${text.slice(0, 120)}`;
  }
}

// ---- the run --------------------------------------------------------------------------------------------------

interface Tally {
  sent: number;
  jsonRpc: number;
  accepted: number;
  http5xx: number;
  notJsonRpc: number;
  hangs: number;
  /** Over-limit bodies whose connection the hub closed (after its 413) while they were still being sent. */
  cutUploads: number;
  status: Map<number, number>;
  samples: Map<string, number>;
}
const tallies = new Map<string, Tally>();
const tally = (key: string): Tally => {
  let found = tallies.get(key);
  if (!found) tallies.set(key, (found = { sent: 0, jsonRpc: 0, accepted: 0, http5xx: 0, notJsonRpc: 0, hangs: 0, cutUploads: 0, status: new Map(), samples: new Map() }));
  return found;
};

await startHub();
// Minted once the hub has made its store (hub-admin creates none).
const token = await new Promise<string>((resolve, reject) => {
  const admin = spawn(process.execPath, [bin('hub-admin'), 'tokens', 'mint', '--all', '--label', 'fuzz'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  admin.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  admin.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`hub-admin tokens mint exited ${code}`))));
});

const pool = new Pool(url, { connections: concurrency, headersTimeout: HANG_MS, bodyTimeout: HANG_MS });
// Warm up (the offline map data loads on first use), then measure.
for (const endpoint of ENDPOINTS) {
  for (const revision of REVISIONS) {
    const { body, headers } = seed(endpoint, revision);
    await pool.request({ path: endpoint, method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify(body) }).then(
      (answer) => answer.body.text(),
      () => undefined,
    );
  }
}
// Read once the hub has had its quiet period's collection after the warm-up (core/cli/idle-collection.ts).
await new Promise((resolve) => setTimeout(resolve, 2 * IDLE_CHECK_MS + 1000));
const rssBefore = rssKiB();
const heapBefore = await heapUsedMiB();
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < requests) {
      const index = next++;
      const endpoint = ENDPOINTS[index % 2] as (typeof ENDPOINTS)[number];
      const revision = REVISIONS[Math.floor(index / 2) % 2] as Revision;
      const record = tally(`${endpoint} ${revision}`);
      const request = mutate(endpoint, revision);
      record.sent++;
      try {
        const answer = await pool.request({
          path: endpoint,
          method: request.method,
          headers: { ...request.headers, authorization: `Bearer ${token}` },
          body: request.body,
          signal: AbortSignal.timeout(HANG_MS),
        });
        const text = await answer.body.text();
        record.status.set(answer.statusCode, (record.status.get(answer.statusCode) ?? 0) + 1);
        if (answer.statusCode >= 500) record.http5xx++;
        const verdict = judge(answer.statusCode, String(answer.headers['content-type'] ?? ''), text);
        if (verdict === 'json-rpc') record.jsonRpc++;
        else if (verdict === 'accepted') record.accepted++;
        else {
          record.notJsonRpc++;
          const kind = verdict.slice(0, 100);
          record.samples.set(kind, (record.samples.get(kind) ?? 0) + 1);
        }
      } catch (error) {
        const name = (error as Error).name;
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (name === 'TimeoutError' || name === 'HeadersTimeoutError' || name === 'BodyTimeoutError') record.hangs++;
        else if ((request.body?.length ?? 0) > BODY_LIMIT && ['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(code)) record.cutUploads++;
        else {
          record.notJsonRpc++;
          const kind = `no answer: ${(error as Error).message}`.slice(0, 100);
          record.samples.set(kind, (record.samples.get(kind) ?? 0) + 1);
        }
      }
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
const rssAfter = rssKiB();
const heapAfter = await heapUsedMiB();
await pool.close();
await new Promise((resolve) => setTimeout(resolve, restSeconds * 1000));
const rssRested = rssKiB();
const heapRested = await heapUsedMiB();
let collected = '';
if (fullGc && hub) {
  const link = await openInspector(hub);
  const heapCollected = (await collectGarbage(link)) / 1048576;
  const rssCollected = rssKiB();
  await link.close();
  collected = `hub after a full collection: RSS ${(rssCollected / 1024).toFixed(1)} MiB (${(rssCollected / rssBefore).toFixed(2)}x before), heap used ${heapCollected.toFixed(1)} MiB\n`;
}
if (flags.snapshots && hub) {
  const snapshotted = hub;
  await snapshotAndSummarize(flags.snapshots, () => void snapshotted.kill('SIGUSR2'), heapUsedMiB);
}
stopping = true;
hub?.kill('SIGTERM');
await new Promise((resolve) => hub?.once('exit', resolve));
await rm(folder, { recursive: true, force: true });

const total = { sent: 0, jsonRpc: 0, accepted: 0, http5xx: 0, notJsonRpc: 0, hangs: 0, cutUploads: 0 };
process.stdout.write(`fuzz: ${requests} mutated JSON-RPC requests, seed ${runSeed}, ${concurrency} at a time, in ${seconds.toFixed(1)} s\n`);
for (const [key, record] of [...tallies].sort()) {
  for (const field of Object.keys(total) as (keyof typeof total)[]) total[field] += record[field];
  const statuses = [...record.status]
    .sort((a, b) => a[0] - b[0])
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
  process.stdout.write(
    `${key.padEnd(20)} sent ${record.sent}  JSON-RPC ${record.jsonRpc}  202-notification ${record.accepted}  HTTP 5xx ${record.http5xx}  not JSON-RPC ${record.notJsonRpc}  hangs ${
      record.hangs
    }  cut uploads ${record.cutUploads}  [${statuses}]\n`,
  );
  for (const [kind, count] of [...record.samples].sort((a, b) => b[1] - a[1]).slice(0, 5)) process.stdout.write(`    ${count} x ${kind.replace(/\s+/g, ' ')}\n`);
}
process.stdout.write(
  `total: sent ${total.sent}, exits ${exits}, HTTP 5xx ${total.http5xx}, not JSON-RPC ${total.notJsonRpc}, hangs ${total.hangs}, JSON-RPC ${total.jsonRpc}, 202 ${total.accepted}, over-limit bodies cut while sending ${total.cutUploads}\n` +
    `hub RSS: before ${(rssBefore / 1024).toFixed(1)} MiB, after ${(rssAfter / 1024).toFixed(1)} MiB, after ${restSeconds} s of rest ${(rssRested / 1024).toFixed(1)} MiB (${(
      rssRested / rssBefore
    ).toFixed(2)}x before); heap used ${heapBefore.toFixed(1)}, ${heapAfter.toFixed(1)}, ${heapRested.toFixed(1)} MiB\n` +
    collected,
);
process.exit(0);
