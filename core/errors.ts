/**
 * An error that stops the hub before it listens. Its message is one line meant for the
 * operator; the CLI prints it as is and exits non-zero, without a stack trace.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
