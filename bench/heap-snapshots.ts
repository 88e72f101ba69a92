// Heap snapshots of a running hub, for the memory benches: the hub is started with
// snapshotArgs(<dir>) (`--heapsnapshot-signal=SIGUSR2`, written into <dir>, made if missing); each snapshot is
// asked for with the signal, and the top of it printed (heap-summary.ts). A snapshot makes a
// full collection first and pauses the hub while it is written.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export function snapshotArgs(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  return ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`];
}

const snapshotFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.heapsnapshot'));

/**
 * Asks for a snapshot (`signal`), waits until it is written and prints its top. `answered`
 * is a request the hub answers: the file appears when the hub starts writing it, and the
 * hub answers nothing until it has finished, so an answer after the file appeared means it
 * is complete.
 */
export async function snapshotAndSummarize(dir: string, signal: () => void, answered: () => Promise<unknown>, top = 15): Promise<string> {
  const before = new Set(snapshotFiles(dir));
  signal();
  let name: string | undefined;
  while ((name = snapshotFiles(dir).find((found) => !before.has(found))) === undefined) await sleep(50);
  await answered();
  const file = join(dir, name);
  process.stdout.write(`${file}\n`);
  // A process of its own: parsing a snapshot takes several times its size in memory, given back when it ends.
  const summary = spawn(process.execPath, [fileURLToPath(new URL('./heap-summary.js', import.meta.url)), file, '--top', String(top)], { stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(summary, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`heap-summary exited with ${code} on ${file}`);
  return file;
}
