import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import { copyWithLibraries, importImage, podmanEnvironment } from '../../helpers/podman.js';

export { whyNoPodman } from '../../helpers/podman.js';

/**
 * A Docker-compatible engine for the tests: podman's API service on a private socket,
 * with its own containers.conf (runc and cgroupfs, which work on these hosts where the
 * defaults do not), and a test image built offline from this machine's node binary.
 */
export interface Engine {
  dockerHost: string;
  docker: Docker;
  /** The image with node at /usr/bin/node and `{"type":"module"}` at /app/package.json. */
  image: string;
  stop(): Promise<void>;
}

export async function startEngine(): Promise<Engine> {
  const directory = mkdtempSync(join(tmpdir(), 'hub-podman-'));
  const env = podmanEnvironment(directory);
  const socket = join(directory, 'engine.sock');
  const image = buildImage(env);
  const service: ChildProcess = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let serviceErrors = '';
  service.stderr?.on('data', (chunk: Buffer) => (serviceErrors += chunk.toString()));
  const docker = new Docker({ socketPath: socket });
  const until = Date.now() + 30_000;
  for (;;) {
    if (service.exitCode !== null) throw new Error(`podman system service exited: ${serviceErrors.trim()}`);
    if (await docker.ping().then(() => true, () => false)) break;
    if (Date.now() > until) throw new Error(`podman system service did not answer: ${serviceErrors.trim()}`);
    await sleep(100);
  }
  return {
    dockerHost: `unix://${socket}`,
    docker,
    image,
    async stop() {
      const exited = new Promise((resolve) => service.once('exit', resolve));
      service.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * An image of node and the shared libraries `ldd` lists, imported offline. Tagged by a
 * hash of the node binary, so a rerun reuses it.
 */
function buildImage(env: NodeJS.ProcessEnv): string {
  const node = realpathSync(process.execPath);
  const { size, mtimeMs } = statSync(node);
  const tag = `localhost/mcp-hub-test-node:${createHash('sha256').update(`${node} ${size} ${mtimeMs} 1`).digest('hex').slice(0, 12)}`;
  if (spawnSync('podman', ['image', 'exists', tag], { env }).status === 0) return tag;
  importImage({ options: [], env }, tag, (root) => {
    copyWithLibraries(root, node, '/usr/bin/node');
    mkdirSync(join(root, 'app'));
    writeFileSync(join(root, 'app/package.json'), '{ "type": "module" }\n');
  });
  return tag;
}

/** Mounts that give the image the compiled fixture children and the SDK they import. */
export function fixtureVolumes(): { source: string; target: string }[] {
  const children = fileURLToPath(new URL('../../fixtures/children/', import.meta.url));
  const modules = realpathSync(fileURLToPath(new URL('../../../../node_modules/', import.meta.url)));
  return [
    { source: children, target: '/app/children' },
    { source: modules, target: '/app/node_modules' },
  ];
}
