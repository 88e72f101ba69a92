// What the libraries the hub loads at start weigh on their own, beside the idle hub.
//
// First a run of the hub (as the memory benches start it: `npm start`'s Node options and
// environment, the plugins a config gets by default, one stdio server, asleep) with
// footprint-hooks.ts, which records every package its own code imports while it starts and
// settles. Then, in fresh processes measured the same way:
// - an empty Node process (footprint-child.ts importing nothing);
// - per package, a process importing only the entry points of it the hub imported;
// - one importing all of them together;
// - the hub itself, idle;
// - per `--also` package (default: undici and OpenTelemetry's tracing, which the hub loads
//   on its first outbound fetch or when tracing is configured), one importing only it.
// Each is weighed from outside once it has settled: its inspector started (SIGUSR1), a full
// collection made through it (HeapProfiler.collectGarbage), then its resident set read from
// /proc (all of it, and the anonymous part: without the pages of node's binary and other
// mapped files, which a library's first use of some part of Node pages in) and V8's heap in
// use from the inspector (Runtime.getHeapUsage). Its module count is
// the number of program files it loaded (ES modules and CommonJS, Node's own modules not
// counted): the files of V8's scripts, which enabling the debugger lists, and require.cache.
// Best (lowest resident set) of `--runs` runs per row, the rows taken in turn within a run.
// Run: npm run build && node dist/bench/library-footprint.js [--runs 3] [--settle 5] [--also <package>,...]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { npmStart, ONE_STDIO_SERVER, rssMbOf, startHubBin, statusMbOf } from './hub-bin.js';
import { collectGarbage, INSPECT_PORT_ARG, loadedFiles, openInspector, type InspectorLink } from './inspector.js';
import { benchCommandLine } from './command-line.js';

const USAGE = 'Usage: node dist/bench/library-footprint.js [--runs 3] [--settle 5] [--also <package>,...]';
const { values } = benchCommandLine(
  {
    options: {
      runs: { type: 'string', default: '3' },
      settle: { type: 'string', default: '5' },
      also: { type: 'string', default: 'undici,@opentelemetry/sdk-trace-node,@opentelemetry/exporter-trace-otlp-http' },
    },
  },
  USAGE,
);
const runs = Number(values.runs);
/** The hub's start-up garbage and lazy work are done within a few seconds of idling (as memory-under-load.ts waits). */
const settleMs = Number(values.settle) * 1000;
/** A row's process has nothing to settle once its imports are done but what V8 compiles in the background. */
const CHILD_SETTLE_MS = 1000;
const HUB_ENV = { LOG_LEVEL: 'info', HUB_PASSWORD: 'bench' };
const CHILD = fileURLToPath(new URL('./footprint-child.js', import.meta.url));
const HOOKS = new URL('./footprint-hooks.js', import.meta.url).href;
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

interface Weighed {
  rssMb: number;
  anonMb: number;
  heapUsedMb: number;
  files: string[];
}

interface Row {
  label: string;
  /** The entry points the row's process imports; none for the hub's row. */
  urls: string[];
  hub?: true;
}

const packageOf = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The packages the hub's own code imports while it starts, each with the specifiers and the files they resolved to. */
async function hubImports(): Promise<Map<string, { specifiers: Set<string>; urls: Set<string> }>> {
  const folder = await mkdtemp(join(tmpdir(), 'library-footprint-'));
  const record = join(folder, 'imports.txt');
  const hub = await startHubBin(ONE_STDIO_SERVER, { plugins: {}, env: { ...HUB_ENV, FOOTPRINT_IMPORTS_FILE: record }, nodeArgs: [`--import=${HOOKS}`] });
  await sleep(settleMs);
  await hub.close();
  const packages = new Map<string, { specifiers: Set<string>; urls: Set<string> }>();
  for (const line of readFileSync(record, 'utf8').split('\n').filter(Boolean)) {
    const [specifier = '', url = ''] = line.split(' ');
    const found = packages.get(packageOf(specifier)) ?? { specifiers: new Set(), urls: new Set() };
    found.specifiers.add(specifier);
    found.urls.add(url);
    packages.set(packageOf(specifier), found);
  }
  await rm(folder, { recursive: true, force: true });
  return packages;
}

async function weigh(link: InspectorLink, pid: number): Promise<Weighed> {
  const heapUsed = await collectGarbage(link);
  const rssMb = rssMbOf(pid);
  const anonMb = statusMbOf(pid, 'RssAnon');
  const files = (await loadedFiles(link)).filter((file) => file !== CHILD);
  await link.close();
  return { rssMb, anonMb, heapUsedMb: Math.round(heapUsed / 104857.6) / 10, files };
}

async function weighChild(urls: string[]): Promise<Weighed> {
  const start = npmStart();
  const child = spawn(process.execPath, [...start.nodeArgs, INSPECT_PORT_ARG, CHILD, ...urls], { env: { ...process.env, ...start.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = once(child, 'exit');
  const ready = await Promise.race([once(child.stdout, 'data').then(() => true), exited.then(() => false)]);
  if (!ready) throw new Error(`a footprint child importing ${urls.join(' ')} exited: ${errors.trim()}`);
  try {
    await sleep(CHILD_SETTLE_MS);
    return await weigh(await openInspector(child), child.pid ?? 0);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

async function weighHub(): Promise<Weighed> {
  const hub = await startHubBin(ONE_STDIO_SERVER, { plugins: {}, env: HUB_ENV, inspectable: true });
  try {
    await sleep(settleMs);
    return await weigh(await hub.inspector(), hub.pid);
  } finally {
    await hub.close();
  }
}

const imports = await hubImports();
const libraries = [...imports].sort((a, b) => a[0].localeCompare(b[0]));
const rows: Row[] = [
  { label: 'empty Node', urls: [] },
  ...libraries.map(([name, found]) => ({ label: name, urls: [...found.urls] })),
  { label: 'all of them together', urls: libraries.flatMap(([, found]) => [...found.urls]) },
  { label: 'the hub, idle', urls: [], hub: true },
  ...values.also
    .split(',')
    .filter(Boolean)
    .map((name) => ({ label: `${name} (not at start)`, urls: [name] })),
];
const best = new Map<Row, Weighed>();
for (let run = 1; run <= runs; run++) {
  for (const row of rows) {
    const weighed = row.hub ? await weighHub() : await weighChild(row.urls);
    const previous = best.get(row);
    if (previous === undefined || weighed.rssMb < previous.rssMb) best.set(row, weighed);
  }
  process.stderr.write(`run ${run} of ${runs} done\n`);
}

const figures = (row: Row): Weighed => best.get(row) as Weighed;
const empty = figures(rows[0] as Row);
const together = figures(rows.find((row) => row.label === 'all of them together') as Row);
const hub = figures(rows.find((row) => row.hub) as Row);
const width = Math.max(...rows.map((row) => row.label.length));
const cell = (value: number | string, size: number): string => String(value).padStart(size);
process.stdout.write(
  [
    `Best of ${runs} runs; a full collection before each reading; MB of 1,048,576 bytes.`,
    `${'row'.padEnd(width)}  ${cell('RSS', 6)}  ${cell('over empty Node', 15)}  ${cell('anonymous', 9)}  ${cell('over empty Node', 15)}  ${cell('heap used', 9)}  ${cell('modules', 7)}`,
    ...rows.map((row) => {
      const weighed = figures(row);
      const over = (value: number): string => (row === rows[0] ? '' : value.toFixed(1));
      return (
        `${row.label.padEnd(width)}  ${cell(weighed.rssMb.toFixed(1), 6)}  ${cell(over(weighed.rssMb - empty.rssMb), 15)}  ${cell(weighed.anonMb.toFixed(1), 9)}  ` +
        `${cell(over(weighed.anonMb - empty.anonMb), 15)}  ${cell(weighed.heapUsedMb.toFixed(1), 9)}  ${cell(weighed.files.length, 7)}`
      );
    }),
    '',
    "What each row imports (the hub's own code imports these at start):",
    ...libraries.map(([name, found]) => `  ${name}: ${[...found.specifiers].sort().join(', ')}`),
    '',
  ].join('\n'),
);
const own = hub.files.filter((file) => file.startsWith(CHECKOUT) && !file.includes('/node_modules/'));
const theirs = new Set(together.files);
const unreached = new Map<string, number>();
for (const file of hub.files.filter((found) => found.includes('/node_modules/') && !theirs.has(found))) {
  const name = packageOf(file.slice(file.lastIndexOf('/node_modules/') + '/node_modules/'.length));
  unreached.set(name, (unreached.get(name) ?? 0) + 1);
}
const unreachedFiles = [...unreached.values()].reduce((sum, count) => sum + count, 0);
process.stdout.write(
  `The hub's ${hub.files.length} files: ${own.length} its own, ${hub.files.length - own.length} of libraries, of which ${unreachedFiles} no row loaded` +
    `${unreachedFiles > 0 ? ` (loaded once the hub runs: ${[...unreached].map(([name, count]) => `${name} ${count}`).join(', ')})` : ''}.\n` +
    `The hub over all its libraries together: ${(hub.rssMb - together.rssMb).toFixed(1)} MB of resident set (${(hub.anonMb - together.anonMb).toFixed(1)} MB anonymous), ${(
      hub.heapUsedMb - together.heapUsedMb
    ).toFixed(1)} MB of heap.\n`,
);
