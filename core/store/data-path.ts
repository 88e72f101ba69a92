import { access, constants, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';

/**
 * Checks, creating nothing, that DATA_PATH is a folder the hub can write or can be
 * created as one, so that an unusable path stops start-up at once with one line naming
 * the variable, rather than failing later, deep inside a plugin, with a bare
 * `ENOTDIR … mkdir` (or hanging on a lock that can never be taken).
 */
export async function checkDataPath(path: string): Promise<void> {
  let problem: string | undefined;
  let cause: unknown;
  try {
    problem = await dataPathProblem(path);
  } catch (error) {
    cause = error;
    problem = (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'a folder in its path is a file' : (error as Error).message;
  }
  if (problem !== undefined) {
    throw new StartupError(`DATA_PATH (${path}) is not a folder the hub can write: ${problem}; set DATA_PATH to one`, { code: HUB_ERROR_CODES.DATA_PATH, cause });
  }
}

/** Why `path` cannot be used as DATA_PATH, or undefined when it can; throws what `stat` throws besides ENOENT. */
async function dataPathProblem(path: string): Promise<string | undefined> {
  let existing = path;
  for (;;) {
    const found = await stat(existing).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return undefined;
    });
    if (found) {
      if (!found.isDirectory()) return existing === path ? 'it is a file' : `${existing} is a file`;
      break;
    }
    if (dirname(existing) === existing) return 'no folder above it exists';
    existing = dirname(existing);
  }
  const writable = await access(existing, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
  if (writable) return undefined;
  return existing === path ? 'it is not writable' : `it does not exist and ${existing} is not writable`;
}

/**
 * The per-user folder for a hub's state when no working folder suits (a desktop client
 * starts `hub-stdio` wherever it likes): XDG_STATE_HOME on Linux and the like, the
 * platform's application-data folder on macOS and Windows.
 */
export function userStateFolder(env: NodeJS.ProcessEnv, platform = process.platform): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'mcp-hub');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'mcp-hub');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'mcp-hub');
}
