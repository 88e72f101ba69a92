import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { DockerEntry } from './entry.js';
import { DOCKER_ERROR_CODES } from './errors.js';
import { HubError } from '../../core/plugin/index.js';

/** Where Docker-compatible engines usually listen, beside the one DOCKER_HOST names. */
const WELL_KNOWN_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/podman/podman.sock', '/var/run/podman/podman.sock'];

export interface ProtectedPaths {
  dataPath: string;
  /** The Unix socket the hub talks to, when DOCKER_HOST names one. */
  engineSocket: string | undefined;
}

export interface BindMount {
  source: string;
  target: string;
  readOnly: boolean;
}

/**
 * The entry's volumes as absolute bind mounts, refusing any that would hand the
 * container the hub's own data (tokens, keys, snapshots) or the engine's socket (which
 * is root on the host). A mount is refused when its source is the protected path, lies
 * inside it, or contains it; symbolic links are resolved first so that a link cannot
 * smuggle either in.
 */
export function bindMounts(entry: DockerEntry, configDirectory: string, protectedPaths: ProtectedPaths): BindMount[] {
  const guarded = [
    { path: protectedPaths.dataPath, what: "the hub's DATA_PATH" },
    ...[protectedPaths.engineSocket, ...WELL_KNOWN_SOCKETS].filter((path): path is string => path !== undefined).map((path) => ({ path, what: 'the Docker socket' })),
  ].map(({ path, what }) => ({ path: canonical(path), what }));
  return (entry.volumes ?? []).map((volume) => {
    const source = canonical(resolve(configDirectory, volume.source));
    for (const { path, what } of guarded) {
      if (within(source, path) || within(path, source)) {
        throw new HubError(DOCKER_ERROR_CODES.SANDBOX_REFUSED, `the volume ${volume.source} -> ${volume.target} is refused: it would expose ${what} (${path}) to the container`);
      }
    }
    return { source, target: volume.target, readOnly: volume.readOnly ?? true };
  });
}

/** The path with symbolic links resolved, as far as it exists. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(canonical(parent), relative(parent, path));
  }
}

function within(path: string, folder: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest));
}
