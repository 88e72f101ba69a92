import type { HubErrorCode } from '../../core/plugin/index.js';

/**
 * The codes of the docker child type's errors (`HubError`s), listed in the README. A
 * closed connection is the kernel's `HUB_ERR_CONNECTION_CLOSED`, as for sockets.
 */
export const DOCKER_ERROR_CODES = {
  /** An entry asks for what the sandbox never allows: another network namespace, a mount of DATA_PATH or the engine's socket. */
  SANDBOX_REFUSED: 'HUB_ERR_DOCKER_SANDBOX_REFUSED',
  /** A memory size that is neither a number of bytes nor a size such as "512m". */
  MEMORY_INVALID: 'HUB_ERR_DOCKER_MEMORY_INVALID',
  /** DOCKER_HOST is neither a unix:// nor a tcp:// address. */
  HOST_INVALID: 'HUB_ERR_DOCKER_HOST_INVALID',
  /** The engine at DOCKER_HOST cannot be reached. */
  ENGINE_UNREACHABLE: 'HUB_ERR_DOCKER_ENGINE_UNREACHABLE',
  /** The image is not on the engine; the hub never pulls one. */
  IMAGE_MISSING: 'HUB_ERR_DOCKER_IMAGE_MISSING',
  /** A container sent a message longer than `maxMessageBytes` and was cut off. */
  MESSAGE_TOO_LARGE: 'HUB_ERR_DOCKER_MESSAGE_TOO_LARGE',
} as const satisfies Record<string, HubErrorCode>;
