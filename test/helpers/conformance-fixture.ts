import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The compiled conformance fixture (`test/fixtures/servers/conformance.ts`). Run it
 * with no arguments to serve stdio, e.g. as a hub `stdio` child:
 * `{ "command": process.execPath, "args": [CONFORMANCE_FIXTURE] }`.
 */
export const CONFORMANCE_FIXTURE = fileURLToPath(new URL('../fixtures/servers/conformance.js', import.meta.url));

/**
 * Starts the fixture as its own process serving Streamable HTTP on a loopback port the
 * OS picks, and resolves with its MCP URL. Stopped at teardown.
 */
export async function startConformanceFixture(t: { teardown(fn: () => unknown): void }, startTimeoutMs = 20_000): Promise<string> {
  const child = spawn(process.execPath, [CONFORMANCE_FIXTURE, '--http', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
      const url = /^(http:\/\/\S+)\n/.exec(stdout)?.[1];
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
