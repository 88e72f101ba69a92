import { StartupError } from '../errors.js';

/**
 * Runs a CLI's main function: a start-up problem is one line on stderr and exit code 1,
 * never a stack trace (set DEBUG=1 for one).
 */
export function runCli(program: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${program}: ${message.split('\n')[0]}\n`);
    if (process.env.DEBUG && !(error instanceof StartupError) && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  });
}

export function wantsHelp(argv: string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}
