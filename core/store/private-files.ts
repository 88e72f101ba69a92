import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { HUB_ERROR_CODES, StartupError, errorMessage } from '../errors.js';

/**
 * What the hub creates under DATA_PATH is for its own user only: the store (with the
 * token-signing key and token hashes), the generated password, the outbound signing key.
 * A umask can only clear bits, so these modes hold whatever the umask is.
 */
export const PRIVATE_FILE_MODE = 0o600;

/** Where the generated operator password is kept, under DATA_PATH (core/operator/password.ts). */
export const PASSWORD_FILE = 'hub-password';
export const PRIVATE_FOLDER_MODE = 0o700;

/** Creates `path` (and missing parents) readable by the hub's user only. */
export async function makePrivateFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/** Where the kernel keeps secrets under DATA_PATH: the embedded store (keys, token hashes), the generated password. */
export const HUB_SECRET_FILES = ['store', PASSWORD_FILE];
/** What else the kernel keeps there, owner-only though not secret: the tool snapshots. */
export const HUB_PRIVATE_FILES = ['snapshots'];

/**
 * The start-up check of what the hub keeps under DATA_PATH (other files there are the
 * operator's). A secret file (`secrets`: the kernel's and the plugins' `secretFiles`)
 * that other users may read or write stops the start: someone may already have copied
 * the key or tokens in it, which no chmod undoes, so the operator decides (the message
 * names the file and the command that closes everything). Any other file of the hub's,
 * and any folder, open to others is closed, and logged.
 */
export async function checkPrivateFiles(dataPath: string, entries: { secrets: readonly string[]; others: readonly string[] }, log: FastifyBaseLogger): Promise<void> {
  const root = await stat(dataPath).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StartupError(`DATA_PATH ${dataPath} cannot be read: ${errorMessage(error)}`, { code: HUB_ERROR_CODES.DATA_PATH, cause: error });
  });
  if (!root) return;
  if (!root.isDirectory()) throw new StartupError(`DATA_PATH ${dataPath} is not a folder`, { code: HUB_ERROR_CODES.DATA_PATH });
  // DATA_PATH itself may be a link to the real folder; nothing inside is followed. Another
  // process's hub may hold the store meanwhile (hub-admin, a replica): its lock folder comes
  // and goes with each write, so an entry gone between being seen and being read or closed
  // was simply not there.
  const folders = [{ path: dataPath, mode: root.mode }];
  const files = { secrets: [] as Entry[], others: [] as Entry[] };
  const visit = async (path: string, kind: keyof typeof files) => {
    const found = await lstat(path).catch(() => undefined);
    if (found?.isDirectory()) {
      folders.push({ path, mode: found.mode });
      for (const name of await readdir(path).catch(unlessGone([]))) await visit(join(path, name), kind);
    } else if (found?.isFile() && found.mode & 0o066) files[kind].push({ path, mode: found.mode });
  };
  for (const kind of ['secrets', 'others'] as const) {
    for (const entry of entries[kind]) await visit(join(dataPath, entry), kind);
  }

  const [first] = files.secrets;
  if (first) {
    const more = files.secrets.length > 1 ? ` (and ${files.secrets.length - 1} more)` : '';
    throw new StartupError(
      `DATA_PATH: ${first.path}${more} can be read or written by other users (mode ${octal(
        first.mode,
      )}); it holds keys, tokens or the password, so consider them exposed. Run: chmod -R go-rwx ${dataPath}`,
      { code: HUB_ERROR_CODES.SECRETS_EXPOSED },
    );
  }
  for (const { path, mode } of files.others) {
    if (await chmod(path, PRIVATE_FILE_MODE).then(() => true, unlessGone(false))) log.warn({ file: path, was: octal(mode) }, 'a DATA_PATH file was open to other users; it is now 0600');
  }
  for (const { path, mode } of folders) {
    if ((mode & 0o077) === 0) continue;
    if (await chmod(path, PRIVATE_FOLDER_MODE).then(() => true, unlessGone(false))) log.warn({ folder: path, was: octal(mode) }, 'a DATA_PATH folder was open to other users; it is now 0700');
  }
}

/** A rejection handler that answers `gone` for a path that no longer exists, and rethrows anything else. */
function unlessGone<T>(gone: T): (error: unknown) => T {
  return (error) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return gone;
    throw error;
  };
}

interface Entry {
  path: string;
  mode: number;
}

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}
