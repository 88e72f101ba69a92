// The hub under a bench: the real plugin on a bare Fastify with its own data folder,
// listening on loopback. `close` stops it and removes the folder.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Hub } from '../core/hub.js';
import { hub, onKernel } from '../core/kernel.js';

export interface BenchHub {
  app: FastifyInstance;
  hub: Hub;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  dataPath: string;
  close(): Promise<void>;
}

export async function startBenchHub(config: Record<string, unknown>, env: Record<string, string> = {}): Promise<BenchHub> {
  const dataPath = await mkdtemp(join(tmpdir(), 'bench-hub-'));
  const app = Fastify({ logger: false });
  let context: Hub | undefined;
  await app.register(hub, { config, env: { DATA_PATH: dataPath, ...env }, settings: { dataPath }, [onKernel]: (created) => void (context = created) });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  if (!context) throw new Error('the hub plugin did not call setup');
  return {
    app,
    hub: context,
    url,
    dataPath,
    async close() {
      await app.close();
      await rm(dataPath, { recursive: true, force: true });
    },
  };
}
