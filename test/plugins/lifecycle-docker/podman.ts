import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';
import { copyWithLibraries, importImage, podmanEnvironment, type Podman } from '../../helpers/podman.js';

export { whyNoPodman } from '../../helpers/podman.js';

/**
 * A Docker-compatible engine for the tests: podman's API service on a private socket,
 * with its own containers.conf (runc and cgroupfs, which work on these hosts where the
 * defaults do not) and its own store under a temporary folder, and a test image built
 * offline from this machine's node binary. `stop` removes the store: the run leaves no
 * image or container in the user's podman.
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
  const podman: Podman = { options: ['--root', join(directory, 'storage'), '--runroot', join(directory, 'run')], env: podmanEnvironment(directory) };
  const socket = join(directory, 'engine.sock');
  const image = buildImage(podman);
  const service: ChildProcess = spawn('podman', [...podman.options, 'system', 'service', '--time=0', `unix://${socket}`], { env: podman.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let serviceErrors = '';
  service.stderr?.on('data', (chunk: Buffer) => (serviceErrors += chunk.toString()));
  const docker = new Docker({ socketPath: socket });
  const until = Date.now() + 30_000;
  for (;;) {
    if (service.exitCode !== null) throw new Error(`podman system service exited: ${serviceErrors.trim()}`);
    if (
      await docker.ping().then(
        () => true,
        () => false,
      )
    )
      break;
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
      // The store's layers belong to the user namespace's ids: podman removes them, then the folder goes.
      for (const args of [
        ['rm', '--force', '--all'],
        ['rmi', '--force', '--all'],
      ])
        spawnSync('podman', [...podman.options, ...args], { env: podman.env, stdio: 'ignore', timeout: 120_000 });
      spawnSync('podman', ['unshare', 'rm', '-rf', directory], { env: podman.env, stdio: 'ignore', timeout: 120_000 });
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** An image of node and the shared libraries `ldd` lists, imported offline into the engine's store. */
function buildImage(podman: Podman): string {
  const node = realpathSync(process.execPath);
  const tag = 'localhost/mcp-hub-test-node:latest';
  importImage(podman, tag, (root) => {
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
