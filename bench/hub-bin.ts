// The real `hub` CLI under a bench, as an operator runs it: its own folder with mcp.json
// and DATA_PATH, a free loopback port. Its log (stdout) is read and counted, as a log
// collector would; its CPU and memory are read from /proc. `close` stops it and removes
// the folder.
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { INSPECT_PORT_ARG, openInspector, type InspectorLink } from './inspector.js';

export interface BenchHubBin {
  url: string;
  /** The hub process, for figures read from outside it (its RSS). */
  pid: number;
  configFile: string;
  /** Log lines the hub has written so far. */
  logLines(): number;
  /** CPU time of every thread of the hub process so far, in microseconds (from /proc, nanosecond-exact). */
  cpuMicros: () => number;
  /** CPU time of the hub's child processes (its stdio servers) so far, in microseconds. */
  childrenCpuMicros: () => number;
  /** The hub process's resident set, in MB. */
  rssMb(): number;
  /** `hub-admin` beside the running hub, with its environment; resolves to stdout. */
  admin(...args: string[]): Promise<string>;
  signal(name: NodeJS.Signals): void;
  /** Starts the hub's inspector and connects to it (only when started `inspectable`). */
  inspector(): Promise<InspectorLink>;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

/** server-everything's stdio entry point in this checkout. */
export const EVERYTHING = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url));
/** The config the memory benches weigh the hub with: one stdio server, asleep until called. */
export const ONE_STDIO_SERVER = { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } };

export interface HubBinOptions {
  /** Merged over the bench's environment (LOG_LEVEL is warn unless given). */
  env?: Record<string, string>;
  /** The config's plugins; default: oauth-as and map-tools off. */
  plugins?: Record<string, unknown>;
  /** Node options for the hub process, after those `npm start` gives it (`--cpu-prof`). */
  nodeArgs?: string[];
  /** The root of another built checkout whose `hub` and `hub-admin` to run instead of this one's (a before/after bench). */
  checkout?: string;
  /** Lets `inspector()` start the hub's inspector later (its stderr is then piped and read; otherwise it is discarded). */
  inspectable?: boolean;
  /** Hears what the hub writes to its standard output (its log, and what V8 traces there: `--trace-gc-nvp`). */
  onOutput?: (chunk: Buffer) => void;
}

/**
 * The Node options and environment `npm start` runs the hub with (package.json's start
 * script, `exec env NAME=value ... node --option ... dist/core/cli/hub.js`), so that a bench
 * measures the hub as it is started: this checkout's, or `checkout`'s (a baseline starts as
 * its own package.json says).
 */
export function npmStart(checkout?: string): { nodeArgs: string[]; env: Record<string, string> } {
  const file = checkout === undefined ? fileURLToPath(new URL('../../package.json', import.meta.url)) : join(checkout, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as { scripts: { start: string } };
  const words = manifest.scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const assignments = words.slice(0, node).flatMap((word) => /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(word) ?? []);
  const env: Record<string, string> = {};
  for (let at = 0; at < assignments.length; at += 3) env[assignments[at + 1] as string] = assignments[at + 2] as string;
  return { nodeArgs: words.slice(node + 1).filter((word) => word.startsWith('--')), env };
}

const cli = (name: string, checkout?: string): string =>
  checkout === undefined ? fileURLToPath(new URL(`../core/cli/${name}.js`, import.meta.url)) : join(checkout, 'dist', 'core', 'cli', `${name}.js`);

export async function startHubBin(config: Record<string, unknown>, options: HubBinOptions = {}): Promise<BenchHubBin> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-hub-bin-'));
  const configFile = join(folder, 'mcp.json');
  await writeFile(configFile, JSON.stringify({ plugins: options.plugins ?? { 'oauth-as': false, 'map-tools': false }, ...config }));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const start = npmStart(options.checkout);
  const env = {
    ...process.env,
    ...start.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: url,
    HUB_CONFIG: configFile,
    DATA_PATH: join(folder, 'data'),
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    ...options.env,
  };
  const inspectable = options.inspectable === true;
  const child = spawn(process.execPath, [...start.nodeArgs, ...(inspectable ? [INSPECT_PORT_ARG] : []), ...(options.nodeArgs ?? []), cli('hub', options.checkout)], {
    env,
    stdio: ['ignore', 'pipe', inspectable ? 'pipe' : 'ignore'],
  });
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let lines = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    options.onOutput?.(chunk);
  });
  const pid = child.pid ?? 0;
  while (
    !(await fetch(`${url}/livez`).then(
      (response) => response.ok,
      () => false,
    ))
  )
    await sleep(20);
  return {
    url,
    pid,
    configFile,
    logLines: () => lines,
    cpuMicros: () => threadsCpuMicros(pid),
    childrenCpuMicros: () => childrenCpuMicros(pid),
    rssMb: () => rssMbOf(pid),
    admin: async (...args) => (await promisify(execFile)(process.execPath, [cli('hub-admin', options.checkout), ...args], { env })).stdout,
    signal: (name) => void child.kill(name),
    inspector: () => (inspectable ? openInspector(child) : Promise.reject(new Error('the hub was not started inspectable'))),
    exited,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** A process's resident set (its own, not its children's), in MB to a tenth. */
export function rssMbOf(pid: number): number {
  return statusMbOf(pid, 'VmRSS');
}

/** A size line of /proc/<pid>/status (VmRSS; RssAnon, the part that is not pages of mapped files such as node's binary), in MB to a tenth. */
export function statusMbOf(pid: number, name: 'VmRSS' | 'RssAnon'): number {
  return Math.round(Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 102.4) / 10;
}

/** The summed on-CPU time of a process's threads (`/proc/<pid>/task/<tid>/schedstat`, first field in ns). */
export function threadsCpuMicros(pid: number): number {
  let nanos = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanos += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nanos / 1000;
}

/** The summed on-CPU time of a process's children (not further descendants), in microseconds. */
export function childrenCpuMicros(pid: number): number {
  return childPids(pid).reduce((sum, child) => sum + threadsCpuMicros(child), 0);
}

function childPids(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
}
