// The real `hub` CLI under a bench, as an operator runs it: its own folder with mcp.json
// and DATA_PATH, a free loopback port, no OAuth. `close` stops it and removes the folder.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export interface BenchHubBin {
  url: string;
  /** The hub process, for figures read from outside it (its RSS). */
  pid: number;
  configFile: string;
  signal(name: NodeJS.Signals): void;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

export async function startHubBin(config: Record<string, unknown>, env: Record<string, string> = {}): Promise<BenchHubBin> {
  const folder = await mkdtemp(join(tmpdir(), 'bench-hub-bin-'));
  const configFile = join(folder, 'mcp.json');
  await writeFile(configFile, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, ...config }));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, [fileURLToPath(new URL('../core/cli/hub.js', import.meta.url))], {
    env: { ...process.env, PORT: String(port), HUB_CONFIG: configFile, DATA_PATH: join(folder, 'data'), LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  while (!(await fetch(`${url}/livez`).then((response) => response.ok, () => false))) await sleep(20);
  return {
    url,
    pid: child.pid ?? 0,
    configFile,
    signal: (name) => void child.kill(name),
    exited,
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(folder, { recursive: true, force: true });
    },
  };
}
