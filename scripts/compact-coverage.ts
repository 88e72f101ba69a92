import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/*
 * Run by tap after the last test file (package.json, "tap" "after"), before c8 reports on the
 * coverage of the run (issue 59). c8 reads every coverage file whole, on one thread, and most of
 * what it parses it then ignores: the counts of Node's own modules and of node_modules, and the
 * source maps of every module a test process loaded (tap starts test files with
 * --enable-source-maps, and Node writes every map it kept beside the coverage). On the suite of
 * 3 December, 2.5 GB from 485 processes, its report took 52 s at the end of the run, with the
 * other core idle.
 *
 * So each file keeps only the scripts of this project's dist/ (c8's include chooses among them,
 * and reads their maps from the files beside them, as it does for the processes that write
 * none), read and written by one worker thread per core: 14 s for those files on 2 cores, 84 MB
 * left, and c8's report of them 3 s, with the same figures. Written here rather than taken from
 * c8, which has no way to drop what it will not report before it parses it.
 *
 * A file that does not parse (a process a test left running may still be writing its own) is
 * left as it is, for c8 to judge. Without NODE_V8_COVERAGE (`npm run test:one`) there is
 * nothing to do.
 */

/** The project's compiled files, as a coverage file names them; none in a node_modules below. */
const OWN = new URL('../', import.meta.url).href;
const ownUrl = (url: string) => url.startsWith(OWN) && !url.includes('/node_modules/', OWN.length - 1);

interface CoverageFile {
  result: Array<{ url: string }>;
}

/** Keeps the project's own scripts of the coverage file at `path`; false when it does not parse. */
async function compact(path: string): Promise<boolean> {
  let coverage: CoverageFile;
  try {
    coverage = JSON.parse(await readFile(path, 'utf8')) as CoverageFile;
  } catch {
    return false;
  }
  // Written beside and renamed, so that nothing ever reads half a file.
  const compacted = `${path}.compacted`;
  await writeFile(compacted, JSON.stringify({ result: coverage.result.filter((script) => ownUrl(script.url)) }));
  await rename(compacted, path);
  return true;
}

async function compactAll(folder: string): Promise<void> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.json'));
  let next = 0;
  let unparsed = 0;
  await Promise.all(
    Array.from(
      { length: Math.min(availableParallelism(), names.length) },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: folder });
          const feed = () => {
            const name = names[next++];
            if (name === undefined) void worker.terminate().then(() => resolve());
            else worker.postMessage(name);
          };
          worker.on('message', (parsed: boolean) => {
            if (!parsed) unparsed++;
            feed();
          });
          worker.on('error', reject);
          feed();
        }),
    ),
  );
  console.log(`# compact-coverage: ${names.length} coverage files kept to this project's scripts${unparsed > 0 ? `; ${unparsed} did not parse and were left as they were` : ''}`);
}

if (isMainThread) {
  // The folder may be given (a test's own); tap's "after" runs the script in the run's coverage.
  const folder = process.argv[2] ?? process.env.NODE_V8_COVERAGE;
  if (folder) await compactAll(folder);
} else {
  const folder = workerData as string;
  parentPort?.on('message', (name: string) => {
    void compact(join(folder, name)).then((parsed) => parentPort?.postMessage(parsed));
  });
}
