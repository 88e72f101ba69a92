import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * podman for the tests, as these hosts run it: its own containers.conf (runc and cgroupfs,
 * which work on hybrid cgroups where crun and the default ulimits do not), and images made
 * offline, since no registry is reachable.
 */
const CONTAINERS_CONF = '[containers]\ndefault_ulimits = []\npids_limit = 0\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n';

/** The reason podman cannot run here, or undefined when it can. */
export function whyNoPodman(): string | undefined {
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return `podman is not installed (${version.error?.message ?? version.stderr.trim()}); .ci/run installs it`;
  const runc = spawnSync('runc', ['--version'], { encoding: 'utf8' });
  if (runc.error || runc.status !== 0) return 'runc is not installed; .ci/run installs it';
  return undefined;
}

/** How to run podman: options before the command (`--root`, for a store of the test's own) and the environment. */
export interface Podman {
  options: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** The environment for podman commands, with the tests' containers.conf written into `directory`. */
export function podmanEnvironment(directory: string): NodeJS.ProcessEnv {
  const file = join(directory, 'containers.conf');
  writeFileSync(file, CONTAINERS_CONF);
  return { ...process.env, CONTAINERS_CONF: file };
}

/**
 * Copies `binary` to `target` under `root`, with the shared libraries `ldd` lists at
 * their own paths, so that it runs in an image that has nothing else.
 */
export function copyWithLibraries(root: string, binary: string, target: string): void {
  // A static binary has no libraries to list (ldd then fails, and says so on stderr).
  const libraries = spawnSync('ldd', [binary], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => /(\/\S+)\s+\(0x/.exec(line)?.[1])
    .filter((path): path is string => path !== undefined);
  for (const [source, destination] of [[binary, target], ...libraries.map((library) => [library, library])] as const) {
    const path = join(root, destination);
    mkdirSync(dirname(path), { recursive: true });
    cpSync(realpathSync(source), path);
  }
}

/**
 * `podman import` of a file tree that `populate` fills (a folder of its own, removed
 * after): an image made without a registry. `changes` are Containerfile instructions
 * applied to it (`ENV PATH=…`, `CMD …`).
 */
export function importImage(podman: Podman, tag: string, populate: (root: string) => void, changes: readonly string[] = []): void {
  const folder = mkdtempSync(join(tmpdir(), 'hub-image-'));
  try {
    const root = join(folder, 'root');
    mkdirSync(root);
    populate(root);
    const tarball = join(folder, 'image.tar');
    execFileSync('tar', ['-C', root, '-cf', tarball, '.']);
    execFileSync('podman', [...podman.options, 'import', ...changes.flatMap((change) => ['--change', change]), tarball, tag], { env: podman.env, stdio: 'ignore' });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
