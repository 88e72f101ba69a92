import { HUB_ERROR_CODES, HubError, StartupError, errorMessage } from '../errors.js';

/**
 * Runs a CLI's main function: a start-up problem is one line on stderr and exit code 1,
 * never a stack trace (set DEBUG=1 for one); a config with several problems, one line each,
 * as `hub check` names them all. The process then exits, so that nothing a
 * half-built hub left running (a timer, a file lock) can keep it hanging.
 */
export function runCli(program: string, main: () => Promise<void>): void {
  // A reader that stops early (`| head -1`) is not an error: the output is simply not wanted.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  main().catch((error: unknown) => {
    const message = errorMessage(error);
    // A usage error ends with the usage; anything else is one line.
    process.stderr.write(`${program}: ${error instanceof UsageError ? message : message.split('\n')[0]}\n`);
    if (error instanceof StartupError) for (const more of error.problems.slice(1)) process.stderr.write(`${program}: ${more.split('\n')[0]}\n`);
    if (process.env.DEBUG && !(error instanceof StartupError) && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  });
}

export function wantsHelp(argv: string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/** A command line the program does not take; the message carries the usage. */
export class UsageError extends HubError {
  override readonly name = 'UsageError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(HUB_ERROR_CODES.USAGE, message, options);
  }
}
