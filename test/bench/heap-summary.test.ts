// bench/heap-summary.ts on a real snapshot: a child Node process that holds a known large
// string, a known Buffer and a module with a known large source text writes a heap snapshot
// of itself (v8.writeHeapSnapshot), and the summary must account for each where it belongs.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';
import { formatHeapSummary, summarizeHeapSnapshotFile } from '../../bench/heap-summary.js';

/** Larger than anything an empty Node process holds, so that it cannot be mistaken for something else. */
const STRING_BYTES = 3 * 1024 * 1024;
const BUFFER_BYTES = 2 * 1024 * 1024;
/** The module's source text: larger than the size rule's 20 KB, smaller than the string. */
const SOURCE_PADDING = 256 * 1024;

const run = promisify(execFile);

t.test('a real snapshot: kinds add up to the total, the big string is a string and not module source, the module source and the buffer are found', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'heap-summary-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const file = join(folder, 'child.heapsnapshot');
  const script = join(folder, 'child.mjs');
  await writeFile(
    script,
    [
      "import { writeHeapSnapshot } from 'node:v8';",
      // JSON.parse makes a flat string in V8's heap (a Buffer's toString of this size would be external to it).
      `globalThis.kept = JSON.parse('"' + 'q'.repeat(${STRING_BYTES}) + '"');`,
      `globalThis.bytes = Buffer.alloc(${BUFFER_BYTES}, 1);`,
      'writeHeapSnapshot(process.argv[2]);',
      `/* ${'p'.repeat(SOURCE_PADDING)} */`,
    ].join('\n'),
  );
  await run(process.execPath, [script, file]);

  const summary = summarizeHeapSnapshotFile(file);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: { meta: { node_fields: string[] } }; nodes: number[] };
  const width = raw.snapshot.meta.node_fields.length;
  const sizeAt = raw.snapshot.meta.node_fields.indexOf('self_size');
  let total = 0;
  for (let node = sizeAt; node < raw.nodes.length; node += width) total += raw.nodes[node] as number;
  t.equal(summary.totalBytes, total, "the total is every node's self size");
  t.equal(
    summary.buckets.reduce((sum, bucket) => sum + bucket.bytes, 0),
    total,
    'the kinds add up to the total',
  );
  t.equal(summary.nodes, raw.nodes.length / width);

  const bucket = (kind: string): number => summary.buckets.find((found) => found.kind === kind)?.bytes ?? 0;
  t.ok(bucket('strings') >= STRING_BYTES, `the strings hold the ${STRING_BYTES}-byte string (${bucket('strings')} bytes)`);
  t.ok(
    summary.constructors.some((entry) => entry.type === 'string' && entry.bytes >= STRING_BYTES),
    'and it is counted under (string)',
  );
  t.ok(bucket('buffers') >= BUFFER_BYTES, `the buffers hold the ${BUFFER_BYTES}-byte Buffer (${bucket('buffers')} bytes)`);
  t.ok(summary.moduleSource.bytes >= SOURCE_PADDING, `module source text holds the child's own source (${summary.moduleSource.bytes} bytes)`);
  t.ok(summary.moduleSource.bytes < STRING_BYTES, 'and not the big string, which no script holds as its source');
  t.ok(summary.moduleSource.count >= 1);
  t.ok(
    summary.buckets.every((entry, at) => at === 0 || (summary.buckets[at - 1] as { bytes: number }).bytes >= entry.bytes),
    'largest kind first',
  );

  const cli = await run(process.execPath, [fileURLToPath(new URL('../../bench/heap-summary.js', import.meta.url)), file, '--top', '5']);
  t.equal(cli.stdout, `${formatHeapSummary(summary, 5)}\n`, 'the command prints the same summary');
  t.match(cli.stdout, /^strings +[\d.]+ MB, of which module source text/m);
});

t.test('a file that is not a heap snapshot is refused with a clear error', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'heap-summary-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const file = join(folder, 'not.heapsnapshot');
  await writeFile(file, JSON.stringify({ snapshot: { meta: { node_fields: ['type'], node_types: [['object']], edge_fields: [], edge_types: [[]] } }, nodes: [], edges: [], strings: [] }));
  t.throws(() => summarizeHeapSnapshotFile(file), /not a V8 heap snapshot: its nodes or edges have no "name" field/);
});
