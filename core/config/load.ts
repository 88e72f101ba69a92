import { readFile } from 'node:fs/promises';
import { StartupError } from '../errors.js';
import { expandEnvironment } from './expand.js';
import { HubConfig } from './schema.js';
import { firstSchemaProblem, pointerToPath } from './schema-errors.js';

export interface LoadedConfig {
  config: HubConfig;
  /** Absolute path of the file, or undefined when the built-in defaults are used. */
  file: string | undefined;
}

/** Reads the config file; a missing file means the built-in defaults. */
export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: {}, file: undefined };
    throw new StartupError(`${file}: cannot read the config file (${(error as Error).message})`);
  }
  return { config: parseConfig(text, file, env), file };
}

export function parseConfig(text: string, source: string, env: NodeJS.ProcessEnv): HubConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const { line, column } = errorPosition((error as Error).message, text);
    throw new StartupError(`${source}:${line}:${column}: the config file is not valid JSON (${describeJsonError((error as Error).message)})`);
  }
  return checkConfig(raw, source, env);
}

/** Validates an already-parsed config (from a file or handed to the plugin when embedding). */
export function checkConfig(raw: unknown, source: string, env: NodeJS.ProcessEnv): HubConfig {
  const problem = firstSchemaProblem(HubConfig, raw);
  if (problem) {
    const path = pointerToPath(problem.path);
    const segments = path.split('.');
    if (segments[0] === 'mcpServers' && segments.length >= 2) {
      const [, server, ...rest] = segments;
      throw new StartupError(`${source}: server "${server}": key "${rest.join('.') || '(entry)'}": expected ${problem.expected}`);
    }
    throw new StartupError(`${source}: ${path ? `key "${path}"` : 'the config'}: expected ${problem.expected}`);
  }
  return expandEnvironment(raw as HubConfig, env, source);
}

/**
 * V8 reports JSON errors either as "... at position N" or, in newer releases, with
 * "(line L column C)"; both are turned into a 1-based line and column.
 */
function errorPosition(message: string, text: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : text.length;
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function describeJsonError(message: string): string {
  return message.replace(/\s*(in JSON )?at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)/, '');
}
