// Shared by the carriage and meta-tools benches: a load loop and its latency figures.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { childrenCpuMicros, threadsCpuMicros } from './hub-bin.js';
import { INSPECT_PORT_ARG, openInspector, type InspectorLink } from './inspector.js';
import type { RawFigures, RawLoad } from './raw-client.js';

export interface LoadFigures {
  callers: number;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  callsPerSecond: number;
}

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The round with the lowest p50, so that a round hit by unrelated load does not count. */
export const bestOf = <T extends LoadFigures>(rounds: T[]): T => rounds.reduce((a, b) => (b.p50Ms < a.p50Ms ? b : a));

export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** `calls` calls of `call`, `callers` at a time; each caller has its own state from `makeCaller`. */
export async function runLoad(callers: number, calls: number, makeCaller: () => Promise<() => Promise<unknown>>): Promise<LoadFigures> {
  const workers = await Promise.all(Array.from({ length: callers }, makeCaller));
  const latencies: number[] = [];
  let remaining = calls;
  const started = performance.now();
  await Promise.all(
    workers.map(async (call) => {
      while (remaining > 0) {
        remaining -= 1;
        const begin = performance.now();
        await call();
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { callers, calls, p50Ms: round(percentile(latencies, 0.5)), p99Ms: round(percentile(latencies, 0.99)), callsPerSecond: Math.round(calls / elapsedSeconds) };
}

/** The trivial HTTP MCP server of `http-child.ts`, in its own process. */
export function startHttpChild(): Promise<PortServer> {
  return startPortServer('./http-child.js');
}

/** The bare HTTP floor of `http-floor.ts` (no MCP library), in its own process. */
export function startHttpFloor(): Promise<PortServer> {
  return startPortServer('./http-floor.js');
}

/** The Fastify floor of `fastify-floor.ts` (Fastify's defaults, one route), in its own process. */
export function startFastifyFloor(): Promise<PortServer> {
  return startPortServer('./fastify-floor.js');
}

/** The stdio proxy floor of `stdio-proxy-floor.ts` (HTTP in, server-everything's stdio out), in its own process. */
export function startStdioProxyFloor(): Promise<PortServer> {
  return startPortServer('./stdio-proxy-floor.js');
}

export interface PortServer {
  url: string;
  /** CPU time of every thread of the server's process so far, in microseconds (from /proc). */
  cpuMicros: () => number;
  /** CPU time of the server's child processes so far (the stdio proxy floor's child), in microseconds. */
  childrenCpuMicros: () => number;
  /** Starts the server's inspector and links to it: what a floor allocates is read as a hub's is (allocation.ts). */
  inspector(): Promise<InspectorLink>;
  stop(): void;
}

/** A bench server script that prints its loopback port and exits when its stdin closes. */
async function startPortServer(relative: string): Promise<PortServer> {
  const script = fileURLToPath(new URL(relative, import.meta.url));
  const child = spawn(process.execPath, [INSPECT_PORT_ARG, script], { stdio: ['pipe', 'pipe', 'pipe'] });
  // Piped for the inspector's address (openInspector reads it); the server's own words are shown as before.
  child.stderr.on('data', (chunk: Buffer) => {
    if (!/Debugger listening on|Debugger attached|For help, see/.test(chunk.toString())) process.stderr.write(chunk);
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  const pid = child.pid ?? 0;
  return {
    url: `http://127.0.0.1:${chunk.toString().trim()}/mcp`,
    cpuMicros: () => threadsCpuMicros(pid),
    childrenCpuMicros: () => childrenCpuMicros(pid),
    inspector: () => openInspector(child),
    stop: () => child.stdin.end(),
  };
}

/** `tools/call` of server-everything's `echo` straight over its stdio, from a separate process (see stdio-floor.ts). */
export function stdioFloorFromProcess(callers: number, calls: number): Promise<LoadFigures> {
  return figuresOf(spawn(process.execPath, [fileURLToPath(new URL('./stdio-floor.js', import.meta.url)), String(callers), String(calls)], { stdio: ['ignore', 'pipe', 'inherit'] }), 'the stdio floor');
}

async function figuresOf(child: ChildProcessByStdio<null, Readable, null>, what: string): Promise<LoadFigures> {
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${what} exited with ${code}`);
  return JSON.parse(output) as LoadFigures;
}

/** `tools/call` load from raw-client.ts (a raw keep-alive HTTP client), in its own process. */
export async function rawLoad(load: RawLoad): Promise<RawFigures> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./raw-client.js', import.meta.url)), JSON.stringify(load)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`the load client exited with ${code} against ${load.url}`);
  return JSON.parse(output) as RawFigures;
}
