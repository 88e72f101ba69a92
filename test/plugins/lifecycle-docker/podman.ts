import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Docker from 'dockerode';

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

const CONTAINERS_CONF = '[containers]\ndefault_ulimits = []\npids_limit = 0\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n';

/** The reason the engine cannot run here, or undefined when it can. */
export function whyNoPodman(): string | undefined {
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return `podman is not installed (${version.error?.message ?? version.stderr.trim()}); .ci/run installs it`;
  const runc = spawnSync('runc', ['--version'], { encoding: 'utf8' });
  if (runc.error || runc.status !== 0) return 'runc is not installed; .ci/run installs it';
  return undefined;
}

export async function startEngine(): Promise<Engine> {
  const directory = mkdtempSync(join(tmpdir(), 'hub-podman-'));
  const env = { ...process.env, CONTAINERS_CONF: join(directory, 'containers.conf') };
  writeFileSync(env.CONTAINERS_CONF, CONTAINERS_CONF);
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
 * `podman import` of a tarball holding node and the shared libraries `ldd` lists: no
 * registry is needed. Tagged by a hash of the node binary, so a rerun reuses it.
 */
function buildImage(env: NodeJS.ProcessEnv): string {
  const node = realpathSync(process.execPath);
  const { size, mtimeMs } = statSync(node);
  const tag = `localhost/mcp-hub-test-node:${createHash('sha256').update(`${node} ${size} ${mtimeMs} 1`).digest('hex').slice(0, 12)}`;
  if (spawnSync('podman', ['image', 'exists', tag], { env }).status === 0) return tag;
  const root = mkdtempSync(join(tmpdir(), 'hub-image-'));
  try {
    // A static node has no libraries to list (ldd then fails, and says so on stderr).
    const libraries = spawnSync('ldd', [node], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((line) => /(\/\S+)\s+\(0x/.exec(line)?.[1])
      .filter((path): path is string => path !== undefined);
    for (const file of [node, ...libraries]) {
      const target = join(root, file === node ? '/usr/bin/node' : file);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(realpathSync(file), target);
    }
    mkdirSync(join(root, 'app'));
    writeFileSync(join(root, 'app/package.json'), '{ "type": "module" }\n');
    const tarball = join(root, '..', `${tag.split(':')[1]}.tar`);
    execFileSync('tar', ['-C', root, '-cf', tarball, '.']);
    try {
      execFileSync('podman', ['import', tarball, tag], { env, stdio: 'ignore' });
    } finally {
      rmSync(tarball, { force: true });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
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
