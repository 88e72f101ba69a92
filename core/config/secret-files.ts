import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';

/**
 * The secrets the hub and its built-in plugins read from the environment. Each may come
 * from a file instead, named by `<NAME>_FILE`: container platforms hand secrets over as
 * files (`/run/secrets/<name>`), which no `env` dump, `inspect` or child process shows.
 * A fixed list, not every `*_FILE`: `MAP_OSM_FILE` names a file that is not a secret;
 * a plugin adds the variables its config names as secrets (`others`: upstream-oauth's
 * `clientSecretEnv`).
 */
export const SECRET_VARIABLES = ['HUB_PASSWORD', 'MONGODB_URL', 'METRICS_TOKEN', 'ALT_ROUTING_API_KEY'] as const;

/** A secret is a password, a token or a URL: a larger file is the wrong file. */
const MAX_SECRET_BYTES = 64 * 1024;

/**
 * The environment with each `<NAME>_FILE` read into `<NAME>` (the file's content without
 * its trailing line ends, which `echo` and editors add) and removed, so that resolving
 * twice changes nothing. The environment itself when no such variable is set. Setting both
 * `<NAME>` and `<NAME>_FILE` is refused, as are a file that cannot be read, an empty one and
 * one that is not a regular file of at most 64 KiB; the message names the variable and the
 * file, never the content.
 */
export async function withSecretFiles(env: NodeJS.ProcessEnv, others: readonly string[] = []): Promise<NodeJS.ProcessEnv> {
  const named = [...new Set([...SECRET_VARIABLES, ...others])].filter((name) => env[`${name}_FILE`]?.trim());
  if (named.length === 0) return env;
  const resolved = { ...env };
  for (const name of named) {
    const variable = `${name}_FILE`;
    const file = env[variable]?.trim() ?? '';
    if (env[name]) throw new StartupError(`${name} and ${variable} are both set; set one of them`, { code: HUB_ERROR_CODES.SECRET_FILE });
    resolved[name] = readSecretFile(variable, file);
    delete resolved[variable];
  }
  return resolved;
}

/**
 * Reads one secret file by the rules above: opened without waiting (a FIFO would wait for
 * a writer) and checked through the handle, so only a regular file of at most 64 KiB is
 * read; trailing line ends dropped; empty refused. Synchronous: it runs while the config
 * is read, before anything listens.
 */
export function readSecretFile(variable: string, file: string): string {
  const refuse = (problem: string, cause?: unknown) =>
    new StartupError(`${variable} (${file}) ${problem}; point ${variable} at the file that holds the secret`, { code: HUB_ERROR_CODES.SECRET_FILE, cause });
  let content: string;
  try {
    const handle = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const found = fstatSync(handle);
      if (!found.isFile()) throw refuse('is not a regular file');
      if (found.size > MAX_SECRET_BYTES) throw refuse(`is larger than ${MAX_SECRET_BYTES / 1024} KiB, too large for a secret`);
      content = readFileSync(handle, 'utf8');
    } finally {
      closeSync(handle);
    }
  } catch (error) {
    if (error instanceof StartupError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw refuse(code === 'ENOENT' ? 'does not exist' : code === 'EACCES' ? "cannot be read by the hub's user" : `cannot be read: ${(error as Error).message}`, error);
  }
  const secret = content.replace(/[\r\n]+$/, '');
  if (secret === '') throw refuse('is empty');
  return secret;
}
