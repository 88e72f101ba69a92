import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { HUB_ERROR_CODES, StartupError } from '../errors.js';

// Apart from load.ts (which checks the config against its schema): hub-admin reads the
// config's plugin selection with nothing heavier loaded.

/** A config file larger than this is refused before it is read: a config is a few kilobytes. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The file's text, or undefined when there is no file. Only a regular file of at most
 * MAX_CONFIG_BYTES is read, and never more than that: a symlink to a device (`/dev/zero`)
 * or a FIFO is refused before a byte is read (opened non-blocking, so a FIFO cannot hang
 * the start), and so is a file that grows past the limit while it is read.
 */
export async function readConfigText(file: string): Promise<string | undefined> {
  const unreadable = (reason: string, cause?: unknown) => new StartupError(`${file}: cannot read the config file (${reason})`, { code: HUB_ERROR_CODES.CONFIG_UNREADABLE, cause });
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unreadable((error as Error).message, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw unreadable('it is not a regular file');
    if (info.size > MAX_CONFIG_BYTES) throw unreadable(`it is ${info.size} bytes; a config file may have ${MAX_CONFIG_BYTES}`);
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_CONFIG_BYTES) throw unreadable(`it grew past ${MAX_CONFIG_BYTES} bytes while being read`);
    }
    return buffer.toString('utf8', 0, length);
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw unreadable((error as Error).message, error);
  } finally {
    await handle.close();
  }
}
