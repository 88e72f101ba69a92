import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type Docker from 'dockerode';
import { DOCKER_ERROR_CODES } from './errors.js';
import { HubError } from '../../core/plugin/index.js';

/** Labels on every container the hub creates, so that it can find its own again. */
export const LABELS = {
  /** Which hub: a hash of its DATA_PATH, the same across restarts. */
  owner: 'mcp-hub.owner',
  /** Which run of that hub: containers of any other run are left over from a crash. */
  instance: 'mcp-hub.instance',
  server: 'mcp-hub.server',
} as const;

/** Where the Docker Engine API is, as DOCKER_HOST says, before anything talks to it. */
export interface EngineAddress {
  /** The Unix socket, when DOCKER_HOST names one (it may never be mounted into a container). */
  socket: string | undefined;
  /** DOCKER_HOST as given, for messages. */
  address: string;
  options: Docker.DockerOptions;
}

export interface Engine extends EngineAddress {
  docker: Docker;
}

/**
 * The Docker Engine API address for DOCKER_HOST, read from the hub's environment (not
 * process.env, so an embedding app or a test can point one hub elsewhere). Unix sockets
 * and tcp:// are supported; DOCKER_TLS_VERIFY with DOCKER_CERT_PATH makes tcp use TLS
 * with the client certificate, as the Docker CLI does.
 */
export function engineAddress(env: NodeJS.ProcessEnv): EngineAddress {
  const address = env.DOCKER_HOST || 'unix:///var/run/docker.sock';
  if (address.startsWith('unix://')) {
    const socket = address.slice('unix://'.length);
    return { options: { socketPath: socket }, socket, address };
  }
  if (address.startsWith('tcp://')) {
    const url = new URL(address);
    const tls = env.DOCKER_TLS_VERIFY !== undefined && env.DOCKER_TLS_VERIFY !== '' && env.DOCKER_TLS_VERIFY !== '0';
    const certs = env.DOCKER_CERT_PATH ?? '';
    const read = (file: string): Buffer => readFileSync(join(certs, file));
    return {
      options: {
        host: url.hostname,
        port: url.port || (tls ? 2376 : 2375),
        protocol: tls ? 'https' : 'http',
        ...(tls ? { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') } : {}),
      },
      socket: undefined,
      address,
    };
  }
  throw new HubError(DOCKER_ERROR_CODES.HOST_INVALID, `DOCKER_HOST "${address}": only unix:// and tcp:// addresses are supported`);
}

/** A client of the engine at `address`; `dockerode` is imported here, by the first use of a docker server. */
export async function openEngine(address: EngineAddress): Promise<Engine> {
  const { default: Docker } = await import('dockerode');
  return { ...address, docker: new Docker(address.options) };
}

/** This hub's owner label value: stable for one DATA_PATH, distinct between hubs. */
export function ownerOf(dataPath: string): string {
  return createHash('sha256').update(dataPath).digest('hex').slice(0, 16);
}

/** How long a removal keeps trying while the engine will not remove the container yet. */
const REMOVAL_RETRY_MS = 10_000;

/**
 * Kills and removes a container now, and resolves once it is gone. Killing first, because
 * a forced remove stops with the image's grace period, and a server that ignores SIGTERM
 * would hold a sleep for it. An engine may refuse the remove (409, or podman's 500 for a
 * state it will not act on) while the container is still stopping after the kill or
 * another removal is under way: taking that for "gone" left the container behind under
 * load, so the remove is tried again until the engine says it is gone (404).
 */
export async function removeContainer(container: Docker.Container): Promise<void> {
  // One that is not running cannot be killed; the remove below still applies.
  await container.kill().catch(() => undefined);
  const until = Date.now() + REMOVAL_RETRY_MS;
  for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
    try {
      await container.remove({ force: true, v: true });
      return;
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404) return;
      if ((status !== 409 && status !== 500) || Date.now() >= until) throw error;
    }
    await delay(pause);
  }
}
