// bench/gc-trace.ts on V8's real trace: a child Node process that keeps what it allocates
// (so minor collections must promote it) and then asks for a full collection.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import t from 'tap';
import { collectionOf, collectionsIn, promotedBytes } from '../../bench/gc-trace.js';

/** More than a young generation holds, kept alive to the end: promoted by minor collections. */
const KEPT = "const kept = []; for (let at = 0; at < 400000; at += 1) kept.push({ at, text: 'kept ' + at }); console.log('kept pause=' + kept.length); gc();";

t.test("V8's trace of a real process: its minor collections promote what it keeps, its full collection is one", async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--trace-gc-nvp', '-e', KEPT], { maxBuffer: 16 * 1024 * 1024 });
  const collections = collectionsIn(stdout);
  const minor = collections.filter((collection) => collection.minor);
  t.ok(minor.length > 0, 'scavenges are read');
  t.ok(
    collections.some((collection) => !collection.minor),
    'the full collection gc() asked for is read, as not minor',
  );
  // 400,000 objects with their strings: well over 10 MB, all kept.
  t.ok(promotedBytes(collections) > 10 * 1024 * 1024, 'what the process kept was promoted, and counted');
  t.ok(
    minor.every((collection) => Number.isFinite(collection.pauseMs) && Number.isFinite(collection.survived)) && minor.some((collection) => collection.pauseMs > 0 && collection.survived > 0),
    'pauses and survivors are read as numbers, and some are not zero',
  );
  t.equal(collections.length, stdout.split('\n').filter((line) => / gc=\w+/.test(line)).length, "the program's own line is not a collection");
});

t.test('a line that is not a collection is none', async (t) => {
  t.equal(collectionOf('kept pause=400000'), undefined);
  t.equal(collectionOf('{"level":30,"msg":"Server listening"}'), undefined);
  t.same(collectionOf('[1:0x1]   10 ms: pause=1.5 mutator=2.0 gc=s reduce_memory=0 promoted=2048 new_space_survived=4096 x=1'), { minor: true, pauseMs: 1.5, promoted: 2048, survived: 4096 });
  t.equal(collectionOf('[1:0x1]   12 ms: pause=7.0 mutator=1.0 gc=mc reduce_memory=0')?.minor, false);
});
