import { Type, type Static } from 'typebox';
import { DOCKER_ERROR_CODES } from './errors.js';
import { HubError } from '../../core/plugin/index.js';

const Volume = Type.Object(
  {
    source: Type.String({ minLength: 1, description: 'Host path; relative to the config file.' }),
    target: Type.String({ pattern: '^/', description: 'Absolute path inside the container.' }),
    readOnly: Type.Optional(Type.Boolean({ default: true, description: 'Default true.' })),
  },
  { additionalProperties: false },
);

export const DockerEntry = Type.Object(
  {
    image: Type.String({ minLength: 1, description: 'Image reference; pin it by digest (name@sha256:...), or a warning is logged.' }),
    args: Type.Optional(Type.Array(Type.String(), { description: "The container's command (replaces the image's CMD)." })),
    env: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "The whole environment of the container besides the image's own." })),
    network: Type.Optional(Type.String({ minLength: 1, default: 'none', description: 'A Docker network name; default none. host and container:<id> are refused.' })),
    memory: Type.Optional(
      Type.Union([Type.Integer({ minimum: 4_194_304 }), Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?[bkmgBKMG]?$' })], {
        description: 'Memory limit in bytes, or with a unit: "512m", "1g". Default: the plugin option defaultMemory.',
      }),
    ),
    cpus: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'CPU limit, as a number of CPUs (0.5 is half of one).' })),
    pids: Type.Optional(Type.Integer({ minimum: 1, description: 'Process limit. Default: the plugin option defaultPids.' })),
    readOnly: Type.Optional(Type.Boolean({ default: true, description: 'Read-only root filesystem; default true.' })),
    user: Type.Optional(Type.String({ minLength: 1, description: "user[:group] to run as; default the image's." })),
    tmpfs: Type.Optional(Type.Array(Type.String({ pattern: '^/' }), { description: 'Writable in-memory folders (noexec, nosuid, 64 MB each), e.g. ["/tmp"].' })),
    volumes: Type.Optional(Type.Array(Volume, { description: "Bind mounts; the hub's DATA_PATH and the Docker socket are refused." })),
  },
  { additionalProperties: true },
);
export type DockerEntry = Static<typeof DockerEntry>;

const UNITS: Record<string, number> = { b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** Bytes from a number of bytes or a Docker-style size ("512m", "1.5g"). */
export function parseMemory(value: number | string): number {
  if (typeof value === 'number') return value;
  const match = /^([0-9]+(?:\.[0-9]+)?)([bkmg]?)$/i.exec(value);
  if (!match) throw new HubError(DOCKER_ERROR_CODES.MEMORY_INVALID, `"${value}" is not a size such as "512m"`);
  const [, amount = '0', unit = ''] = match;
  return Math.floor(Number(amount) * (UNITS[unit.toLowerCase()] ?? 1));
}

/**
 * Whether a reference names one image content for good: `name@sha256:<digest>`, or an
 * image ID `sha256:<id>`. A tag can be moved to other content at any time.
 */
export function isPinned(image: string): boolean {
  return /(^|@)sha256:[0-9a-f]{64}$/.test(image);
}
