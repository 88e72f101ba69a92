import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FixtureVariant } from '../fixtures/servers/conformance-server.js';

/**
 * The compiled conformance fixture (`test/fixtures/servers/conformance.ts`). Run it
 * with no arguments to serve stdio, e.g. as a hub `stdio` child:
 * `{ "command": process.execPath, "args": [CONFORMANCE_FIXTURE] }`.
 */
export const CONFORMANCE_FIXTURE = fileURLToPath(new URL('../fixtures/servers/conformance.js', import.meta.url));

/** A hub `stdio` entry running the fixture's `variant`. */
export function conformanceStdioEntry(variant: FixtureVariant = 'standard', env: Record<string, string> = {}): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: [CONFORMANCE_FIXTURE, '--variant', variant], env };
}

/**
 * Starts the fixture (its `variant`) as its own process serving Streamable HTTP (or the
 * old HTTP+SSE, or a TCP socket) on a loopback port the OS picks, and resolves with its
 * URL (`http://…/mcp`, `http://…/sse`, `tcp://…`). Stopped at teardown.
 */
export async function startConformanceFixture(
  t: { teardown(fn: () => unknown): void },
  variant: FixtureVariant = 'standard',
  transport: 'http' | 'sse' | 'tcp' = 'http',
  env: Record<string, string> = {},
  startTimeoutMs = 20_000,
): Promise<string> {
  const child = spawn(process.execPath, [CONFORMANCE_FIXTURE, `--${transport}`, '0', '--variant', variant], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.teardown(() => {
    child.kill('SIGTERM');
    return exited;
  });
  return new Promise<string>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`the conformance fixture printed no URL within ${startTimeoutMs} ms: ${stderr}`)), startTimeoutMs);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /^((?:http|tcp):\/\/\S+)\n/.exec(stdout)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the conformance fixture exited (code ${String(code)}) before printing its URL: ${stderr}`));
    });
  });
}
