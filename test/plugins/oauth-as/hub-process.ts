import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath, runNode, type CliResult } from '../../helpers/cli.js';
import { freePort } from '../../helpers/net.js';

export interface HubProcess {
  url: string;
  dataPath: string;
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
  /** `hub-admin` run against the same config and DATA_PATH. */
  admin(...args: string[]): Promise<CliResult>;
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

export interface HubProcessOptions {
  /** Options of the oauth-as plugin. */
  plugin?: Record<string, unknown>;
  /** Extra environment, e.g. NODE_EXTRA_CA_CERTS or no HUB_PASSWORD. */
  env?: Record<string, string | undefined>;
  /** Reuse a data folder, for restarts. */
  dataPath?: string;
}

/**
 * The real `hub` CLI as its own process, on a loopback port, with oauth-as on and no
 * servers; ready once /health answers. Stopped by the test's teardown.
 */
export async function startHubProcess(t: { teardown(fn: () => unknown): void }, options: HubProcessOptions = {}): Promise<HubProcess> {
  const folder = await mkdtemp(join(tmpdir(), 'hub-process-'));
  const dataPath = options.dataPath ?? join(folder, 'data');
  const config = join(folder, 'mcp.json');
  // No children and no map: these hubs exist for their OAuth side and /hub.
  await writeFile(config, JSON.stringify({ mcpServers: {}, plugins: { 'oauth-as': options.plugin ?? true, 'map-tools': false } }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    HOST: '127.0.0.1',
    PORT: String(port),
    BASE_URL: url,
    DATA_PATH: dataPath,
    HUB_CONFIG: config,
    HUB_PASSWORD: 'correct horse',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const child = spawn(process.execPath, [cliPath('hub')], { env: defined({ ...process.env, ...env }), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  t.teardown(stop);

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the hub exited with ${child.exitCode}: ${stderr}`);
    const healthy = await fetch(`${url}/health`).then((response) => response.ok, () => false);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the hub did not answer /health within 60 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    dataPath,
    stderr: () => stderr,
    admin: (...args: string[]) => runNode(cliPath('hub-admin'), args, defined({ ...process.env, ...env })),
    stop,
  };
}

/** An environment without the variables set to undefined (unset, not the string "undefined"). */
function defined(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
