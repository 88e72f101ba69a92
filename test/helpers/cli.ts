import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Absolute path of a compiled CLI entry point, e.g. `cliPath('hub')`. */
export function cliPath(name: string): string {
  return fileURLToPath(new URL(`../../core/cli/${name}.js`, import.meta.url));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a node script to completion (bounded by `timeoutMs`) and collects its output. */
export function runNode(script: string, args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
