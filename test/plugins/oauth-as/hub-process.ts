import { cliPath, runNode, type CliResult } from '../../helpers/cli.js';
import { startHubBin } from '../../helpers/hub-bin.js';

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
  // No children and no map: these hubs exist for their OAuth side and /hub.
  const hub = await startHubBin(t, {
    config: { mcpServers: {}, plugins: { 'oauth-as': options.plugin ?? true, 'map-tools': false } },
    ...(options.dataPath !== undefined && { dataPath: options.dataPath }),
    env: { HUB_PASSWORD: 'correct horse', LOG_LEVEL: 'warn', ...options.env },
  });
  return {
    url: hub.url,
    dataPath: hub.dataPath,
    stderr: () => hub.stderr(),
    admin: (...args: string[]) => runNode(cliPath('hub-admin'), args, hub.env),
    stop: () => hub.stop(),
  };
}
