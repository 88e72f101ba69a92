import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { makePrivateFolder, PASSWORD_FILE, PRIVATE_FILE_MODE } from '../store/private-files.js';
import { hashSecret, secretMatches } from '../secrets.js';
import { sharedAttempt } from '../shared-attempt.js';

/**
 * The shared approval password: HUB_PASSWORD, or one generated at first start, kept in
 * `<DATA_PATH>/hub-password` (readable by the owner only). When the log is readable lines
 * (a terminal), the password is printed once on stderr, never through the logger; when it
 * is JSON (a collector reads it), one log record names the file instead, and the password
 * itself is in no output.
 */
export class SharedPassword {
  /** The password's hash, read or made once. */
  readonly ensure = sharedAttempt(() => this.#load());

  constructor(
    private readonly dataPath: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly log?: FastifyBaseLogger,
  ) {}

  get file(): string {
    return join(this.dataPath, PASSWORD_FILE);
  }

  async matches(presented: string): Promise<boolean> {
    return secretMatches(presented, await this.ensure());
  }

  async #load(): Promise<string> {
    const fromEnvironment = this.env.HUB_PASSWORD;
    if (fromEnvironment) return hashSecret(fromEnvironment);
    try {
      return hashSecret((await readFile(this.file, 'utf8')).trim());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const password = randomBytes(18).toString('base64url');
    await makePrivateFolder(this.dataPath);
    try {
      await writeFile(this.file, `${password}\n`, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (error) {
      // Another process generated one first: use that one.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return hashSecret((await readFile(this.file, 'utf8')).trim());
      throw error;
    }
    // Imported here: hub-admin's store-only commands must not load the settings.
    const { readableLogs } = await import('../log-format.js');
    if (this.log && !readableLogs(this.env)) {
      this.log.warn(
        { passwordFile: this.file },
        "generated the approval password (HUB_PASSWORD is unset): read it once from the file passwordFile names (readable by the hub's user only); it is printed nowhere",
      );
    } else {
      process.stderr.write(`hub: generated the approval password (HUB_PASSWORD is unset): ${password}\nhub: it is stored in ${this.file} and will not be printed again\n`);
    }
    return hashSecret(password);
  }
}
