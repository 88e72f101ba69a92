import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * `parseArgs` for a bench: `--help` (or `-h`) prints the usage and exits 0; a flag it does
 * not take, or a value missing, prints Node's message and the usage and exits 2, rather than
 * a stack trace from the top of the module.
 */
export function benchCommandLine<T extends ParseArgsConfig>(config: T, usage: string): ReturnType<typeof parseArgs<T>> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  try {
    return parseArgs<T>(config);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    process.exit(2);
  }
}
