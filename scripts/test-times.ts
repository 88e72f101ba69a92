import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/*
 * The slowest test files of the last `npm test` (issue 59), read from the record tap keeps of
 * every test process in `.tap/processinfo/` (one JSON file each; the test file is its
 * `externalID`, `runtime` its wall time in ms, `date` its start). Wall time, not CPU: with
 * several files side by side on a shared machine it shows where a run waits as much as where
 * it computes. The record is replaced by each run of `tap`, so read it right after the run.
 *
 *   node dist/scripts/test-times.js [--top 15] [project folder, default .]
 */

interface ProcessRecord {
  externalID?: string;
  runtime?: number;
  date?: string;
}

const { values, positionals } = parseArgs({ options: { top: { type: 'string', default: '15' } }, allowPositionals: true });
const folder = join(resolve(positionals[0] ?? '.'), '.tap', 'processinfo');
const top = Number(values.top);

const files: Array<{ file: string; seconds: number; start: number }> = [];
// No folder: tap has not run here, which the check below reports.
for (const name of await readdir(folder).catch(() => [])) {
  if (!name.endsWith('.json')) continue;
  const record = JSON.parse(await readFile(join(folder, name), 'utf8')) as ProcessRecord;
  // Processes a test started have no externalID; only the test files themselves do.
  if (!record.externalID || record.runtime === undefined || !record.date) continue;
  files.push({ file: record.externalID, seconds: record.runtime / 1000, start: Date.parse(record.date) });
}
if (files.length === 0) {
  console.error(`test-times: no test file's record in ${folder}: run npm test first`);
  process.exit(1);
}

files.sort((a, b) => b.seconds - a.seconds);
const total = files.reduce((sum, entry) => sum + entry.seconds, 0);
const span = (Math.max(...files.map((entry) => entry.start + entry.seconds * 1000)) - Math.min(...files.map((entry) => entry.start))) / 1000;
console.log(`${files.length} test files, ${total.toFixed(0)} s of file time within ${span.toFixed(0)} s from the first start to the last end`);
console.log('rank\tseconds\tshare\tcumulative\tfile');
let cumulative = 0;
for (const [index, entry] of files.slice(0, top).entries()) {
  cumulative += entry.seconds;
  console.log(`${index + 1}\t${entry.seconds.toFixed(1)}\t${((entry.seconds / total) * 100).toFixed(1)}%\t${((cumulative / total) * 100).toFixed(1)}%\t${entry.file}`);
}
