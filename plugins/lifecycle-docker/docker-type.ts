import type Docker from 'dockerode';
import { ContainerTransport } from './container-transport.js';
import { DockerEntry } from './entry.js';
import type { Engine } from './engine.js';
import { DOCKER_ERROR_CODES } from './errors.js';
import { containerSpec, type SpecContext } from './spec.js';
import { type ChildType, connectClient, type StderrLimits, StderrLog } from '../../core/plugin/child-type.js';
import { HubError } from '../../core/plugin/index.js';

export interface DockerTypeOptions {
  /** The engine's client, made on first use. */
  engine: () => Promise<Engine>;
  clientInfo: { name: string; version: string };
  spec: SpecContext;
  maxMessageBytes: number;
  stderr: StderrLimits;
  /** The containers this run of the hub has created and not yet removed, by ID. */
  live: Set<string>;
}

/**
 * `docker` children: each start creates a fresh container from the entry, attaches to
 * its stdin and stdout and speaks MCP through them; closing the connection (sleep,
 * shutdown, a failed start) removes the container. On-demand unless `keepAlive`.
 */
export function createDockerChildType(options: DockerTypeOptions): ChildType {
  return {
    type: 'docker',
    entrySchema: DockerEntry,
    alwaysRunning: (entry) => entry.keepAlive === true,
    probes: false,
    async check(entry) {
      const { image } = entry as DockerEntry;
      const { docker, address } = await options.engine();
      try {
        await docker.getImage(image).inspect();
        return { ok: true, detail: `image ${image} is present at ${address}` };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return { ok: false, detail: `image ${image} is not present at ${address}; the hub never pulls images: pull or load it first` };
        return { ok: false, detail: `the Docker Engine API at ${address} (DOCKER_HOST) did not answer: ${(error as Error).message}` };
      }
    },
    async connect(entry, context) {
      // The kernel checked the entry against DockerEntry before adding the server.
      const spec = containerSpec(context.name, entry as DockerEntry, options.spec);
      const { docker, address } = await options.engine();
      const container = await create(docker, spec, address);
      options.live.add(container.id);
      const stderr = new StderrLog(context.name, context.log, options.stderr);
      const transport = new ContainerTransport({
        docker,
        container,
        maxMessageBytes: options.maxMessageBytes,
        stderr,
        onRemoved: () => options.live.delete(container.id),
      });
      const connection = await connectClient(transport, context, {
        clientInfo: options.clientInfo,
        // As for stdio: every server answers initialize, and a probe would cost a second container.
        negotiation: 'legacy',
        describeClose: () => {
          const why = transport.ended ?? 'the container connection closed';
          return stderr.lastLine === undefined ? why : `${why} (last stderr line: ${stderr.lastLine})`;
        },
      });
      connection.stderrTail = () => stderr.tail;
      return connection;
    },
  };
}

async function create(docker: Docker, spec: Docker.ContainerCreateOptions, address: string): Promise<Docker.Container> {
  try {
    return await docker.createContainer(spec);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) {
      throw new HubError(DOCKER_ERROR_CODES.IMAGE_MISSING, `the image ${spec.Image} is not on the Docker engine at ${address}; the hub does not pull images: pull it first`, { cause: error });
    }
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'EACCES') {
      throw new HubError(DOCKER_ERROR_CODES.ENGINE_UNREACHABLE, `the Docker engine at ${address} cannot be reached (${code}); set DOCKER_HOST`, { cause: error });
    }
    throw error;
  }
}
