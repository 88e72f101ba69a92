/** A stable error code, `HUB_ERR_` and upper-case words: what callers and tests branch on. */
export type HubErrorCode = `HUB_ERR_${string}`;

/**
 * The hub's one error family, as Fastify's `FST_ERR_*`: a stable `code` to branch on, the
 * underlying `cause` kept, and a message written for people that may change. Text for a
 * client or an operator is made from it at the edge (a JSON-RPC error, a tool error, a log
 * line, a start-up line).
 */
export class HubError extends Error {
  override readonly name: string = 'HubError';

  constructor(
    readonly code: HubErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * An error that stops the hub before it listens. Its message is one line meant for the
 * operator; the CLI prints it as is and exits non-zero, without a stack trace.
 */
export class StartupError extends HubError {
  override readonly name = 'StartupError';

  constructor(message: string, options?: { cause?: unknown; code?: HubErrorCode }) {
    super(options?.code ?? 'HUB_ERR_STARTUP', message, options);
  }
}
