import t from 'tap';
import { collectAllGarbage, IdleCollection, QUIET_REQUESTS } from '../../core/cli/idle-collection.js';
import { startHubBin } from '../helpers/hub-bin.js';

// Issue 42: the standalone hub gives back what start-up left, with one full collection
// once it has gone quiet, and never pauses a hub that keeps serving for it.

function policy(collect: () => Promise<void> = async () => undefined) {
  const warnings: string[] = [];
  let collections = 0;
  const idle = new IdleCollection(
    async () => {
      collections += 1;
      await collect();
    },
    { debug: () => undefined, warn: (_fields, message) => void warnings.push(message) },
  );
  const serve = (requests: number): void => {
    for (let made = 0; made < requests; made += 1) idle.served();
  };
  return { idle, serve, warnings, collections: () => collections };
}

t.test('the first quiet period after start-up collects, once', async (t) => {
  const { idle, serve, collections } = policy();
  serve(QUIET_REQUESTS - 1);
  t.equal(await idle.check(), true, 'probes and scrapes alone are quiet: start-up garbage is collected');
  t.equal(await idle.check(), false);
  serve(QUIET_REQUESTS * 50);
  t.equal(await idle.check(), false, 'a busy spell after it is left to V8');
  t.equal(await idle.check(), false, 'and so is the quiet after it (the calls after a collection run cold)');
  t.equal(collections(), 1);
});

t.test('busy periods after start-up defer the collection to the first quiet one', async (t) => {
  const { idle, serve, collections } = policy();
  serve(QUIET_REQUESTS);
  t.equal(await idle.check(), false, 'a hub that serves is not paused');
  serve(QUIET_REQUESTS * 50);
  t.equal(await idle.check(), false);
  t.equal(collections(), 0);
  t.equal(await idle.check(), true, 'quiet at last');
  t.equal(collections(), 1);
});

t.test('a collection that fails is logged, not thrown, and not tried again', async (t) => {
  const { idle, warnings, collections } = policy(async () => {
    throw new Error('no inspector in this build');
  });
  t.equal(await idle.check(), false);
  t.same(warnings, ['the idle collection failed']);
  t.equal(await idle.check(), false);
  t.equal(collections(), 1);
});

/** A WeakRef to an object nothing else holds, once the job that made it has ended (until then its target is kept). */
async function weaklyHeld(): Promise<WeakRef<object>> {
  const ref = new WeakRef({ payload: Array.from({ length: 10_000 }, (_, index) => index) });
  await new Promise((resolve) => setImmediate(resolve));
  return ref;
}

t.test('collectAllGarbage makes a full collection: an object only a WeakRef holds is gone', async (t) => {
  // V8 may make a full collection of its own at any moment (a busy CI machine's test process
  // did, between the job's end and ours): a target already gone proves nothing, so another is made.
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const ref = await weaklyHeld();
    if (ref.deref() === undefined) continue;
    await collectAllGarbage();
    t.equal(ref.deref(), undefined, `gone after the collection (attempt ${attempt})`);
    return;
  }
  t.fail('V8 collected each target before collectAllGarbage could: nothing was shown');
});

t.test('the hub CLI collects once it has gone quiet after start-up', async (t) => {
  const hub = await startHubBin(t, { config: { mcpServers: {} }, env: { LOG_LEVEL: 'debug' } });
  const record = await hub.waitForLog('the idle collection', (line) => line.msg === 'collected start-up garbage while idle');
  t.type(record.rssBeforeMb, 'number');
  t.type(record.rssAfterMb, 'number');
  t.equal(hub.logs().filter((line) => line.msg === 'the idle collection failed').length, 0);
});
