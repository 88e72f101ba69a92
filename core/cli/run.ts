import { parseArgs, type ParseArgsConfig } from 'node:util';
import { HUB_ERROR_CODES, HubError, StartupError } from '../errors.js';
import { SETTING_VARIABLES } from '../settings.js';

/**
 * Runs a CLI's main function: a start-up problem is one line on stderr and exit code 1,
 * never a stack trace (set DEBUG=1 for one). The process then exits, so that nothing a
 * half-built hub left running (a timer, a file lock) can keep it hanging.
 */
export function runCli(program: string, main: () => Promise<void>): void {
  // A reader that stops early (`| head -1`) is not an error: the output is simply not wanted.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  main().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    // A usage error ends with the usage; anything else is one line.
    process.stderr.write(`${program}: ${error instanceof UsageError ? message : message.split('\n')[0]}\n`);
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

/**
 * Parses a bin's flags strictly: an unknown flag or a stray argument is refused with the
 * usage. A flag that spells a setting (`--port`) points at its environment variable,
 * since every setting is read from the environment.
 */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string): ParsedFlags<T> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (error) {
    const flag = /'(--?[^']+)'/.exec((error as Error).message)?.[1];
    const variable = flag && settingVariable(flag);
    const hint = variable ? `; settings come from the environment: set ${variable}` : '';
    throw new UsageError(`${flag ? `unknown option ${flag.split('=')[0]}` : (error as Error).message}${hint}\n\n${usage}`, { cause: error });
  }
}

/**
 * What `parseFlags` returns, named through `parseArgs` itself: an inferred type would be
 * spelt in the .d.ts with names (`ParseArgsOptionsConfig`) that older @types/node lack.
 */
type ParsedFlags<T extends NonNullable<ParseArgsConfig['options']>> = ReturnType<typeof parseArgs<{ args: string[]; options: T; strict: true; allowPositionals: false }>>;

function settingVariable(flag: string): string | undefined {
  const name = flag.replace(/^-+/, '').split('=')[0]?.toUpperCase().replace(/-/g, '_') ?? '';
  const known = Object.values(SETTING_VARIABLES);
  return known.find((variable) => variable === name || variable === `HUB_${name}` || variable.replace(/_PATH$/, '') === name);
}
