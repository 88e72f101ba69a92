import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Loaded into every test process (package.json, "tap" "node-arg"): the process and everything
 * it starts make their temporary folders in one folder of its own, removed when it exits. Tests
 * make hundreds of data folders, configs and stores (a full run left about 630 folders in
 * /tmp), most without removing them, and the hubs, CLIs and browsers they start make more.
 * Node's tmpdir() reads TMPDIR on each call, and a started process inherits it.
 *
 * A process a test leaves running may still be writing into the folder while it is removed, so
 * the removal is retried and otherwise given up: a leftover folder must not fail the test file.
 */
const folder = mkdtempSync(join(tmpdir(), 'hub-tests-'));
process.env.TMPDIR = folder;
process.on('exit', () => {
  try {
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    // Left for the system's cleaning of /tmp, as every folder was before.
  }
});
