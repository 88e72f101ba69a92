import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { parseMemory, type DockerEntry } from './entry.js';
import { DOCKER_ERROR_CODES } from './errors.js';
import { LABELS } from './engine.js';
import { bindMounts, type ProtectedPaths } from './mounts.js';
import { HubError } from '../../core/plugin/index.js';

export interface SpecDefaults {
  memory: string;
  pids: number;
}

export interface SpecContext {
  owner: string;
  instance: string;
  configDirectory: string;
  protectedPaths: ProtectedPaths;
  defaults: SpecDefaults;
}

/**
 * The create request for one run of a server: stdin kept open and attached, no TTY (so
 * stdout and stderr arrive apart), and the sandbox: no privileges, every capability
 * dropped, no-new-privileges, memory (without extra swap) and process limits, a
 * read-only root unless the entry says otherwise, and no network unless it names one.
 * Throws on what is never allowed: sharing the host's or another container's network
 * namespace, and mounts of the hub's data or the Docker socket.
 */
export function containerSpec(name: string, entry: DockerEntry, context: SpecContext): Docker.ContainerCreateOptions {
  const network = entry.network ?? 'none';
  if (network === 'host' || network.startsWith('container:')) {
    throw new HubError(DOCKER_ERROR_CODES.SANDBOX_REFUSED, `network "${network}" is refused: it would share a network namespace outside the sandbox`);
  }
  const memory = parseMemory(entry.memory ?? context.defaults.memory);
  const mounts = bindMounts(entry, context.configDirectory, context.protectedPaths);
  return {
    name: `mcp-hub-${name}-${randomBytes(4).toString('hex')}`,
    Image: entry.image,
    ...(entry.args === undefined ? {} : { Cmd: entry.args }),
    Env: Object.entries(entry.env ?? {}).map(([key, value]) => `${key}=${value}`),
    ...(entry.user === undefined ? {} : { User: entry.user }),
    Labels: { [LABELS.owner]: context.owner, [LABELS.instance]: context.instance, [LABELS.server]: name },
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: true,
    Tty: false,
    NetworkDisabled: network === 'none',
    HostConfig: {
      NetworkMode: network,
      Privileged: false,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: entry.readOnly ?? true,
      Memory: memory,
      MemorySwap: memory,
      PidsLimit: entry.pids ?? context.defaults.pids,
      ...(entry.cpus === undefined ? {} : { NanoCpus: Math.round(entry.cpus * 1e9) }),
      ...(entry.tmpfs === undefined ? {} : { Tmpfs: Object.fromEntries(entry.tmpfs.map((path) => [path, 'rw,noexec,nosuid,size=64m'])) }),
      Binds: mounts.map((mount) => `${mount.source}:${mount.target}:${mount.readOnly ? 'ro' : 'rw'}`),
    },
  };
}
