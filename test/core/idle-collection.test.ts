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

t.test('collectAllGarbage makes a full collection: an object only a WeakRef holds is gone', async (t) => {
  let target: { payload: number[] } | undefined = { payload: Array.from({ length: 10_000 }, (_, index) => index) };
  const ref = new WeakRef(target);
  // eslint-disable-next-line no-useless-assignment -- dropping the only strong reference is the point
  target = undefined;
  // A WeakRef's target is kept until the job that made it ends; a minor collection keeps it too.
  await new Promise((resolve) => setImmediate(resolve));
  t.ok(ref.deref(), 'still there before the collection');
  await collectAllGarbage();
  t.equal(ref.deref(), undefined);
});

t.test('the hub CLI collects once it has gone quiet after start-up', async (t) => {
  const hub = await startHubBin(t, { config: { mcpServers: {} }, env: { LOG_LEVEL: 'debug' } });
  const record = await hub.waitForLog('the idle collection', (line) => line.msg === 'collected start-up garbage while idle');
  t.type(record.rssBeforeMb, 'number');
  t.type(record.rssAfterMb, 'number');
  t.equal(hub.logs().filter((line) => line.msg === 'the idle collection failed').length, 0);
});
