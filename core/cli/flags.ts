import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SETTING_VARIABLES } from '../config/settings.js';
import { UsageError } from './run.js';

/**
 * Parses a bin's flags strictly: an unknown flag or a stray argument is refused with the
 * usage. A flag that spells a setting (`--port`) points at its environment variable,
 * since every setting is read from the environment.
 */
export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (error) {
    const flag = /'(--?[^']+)'/.exec((error as Error).message)?.[1];
    const variable = flag && settingVariable(flag);
    const hint = variable ? `; settings come from the environment: set ${variable}` : '';
    throw new UsageError(`${flag ? `unknown option ${flag.split('=')[0]}` : (error as Error).message}${hint}\n\n${usage}`, { cause: error });
  }
}

function settingVariable(flag: string): string | undefined {
  const name = flag.replace(/^-+/, '').split('=')[0]?.toUpperCase().replace(/-/g, '_') ?? '';
  const known = Object.values(SETTING_VARIABLES);
  return known.find((variable) => variable === name || variable === `HUB_${name}` || variable.replace(/_PATH$/, '') === name);
}
