import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { MAX_STALENESS_MS, openEmbeddedStore } from '../../../core/store/embedded.js';
import { openStore, type Store } from '../../../core/store/index.js';
import { storeContract } from './contract.js';

const dataPath = await mkdtemp(join(tmpdir(), 'store-test-'));

t.test('embedded store contract', async (t) => {
  storeContract(t, { open: () => openStore({ dataPath }), env: { DATA_PATH: dataPath, MONGODB_URL: '' } });
});

t.test('the embedded store keeps one file per collection under <DATA_PATH>/store', async (t) => {
  const store = await openStore({ dataPath });
  t.equal(store.kind, 'embedded');
  await store.collection('layout').insertOne({ _id: 'x' });
  await store.close();
  t.ok((await readdir(join(dataPath, 'store'))).includes('layout.db'));
});

t.test('a lookup that misses looks again when another process wrote: a record another replica wrote a moment ago is found', async (t) => {
  const directory = join(dataPath, 'miss');
  const now = 1_000_000;
  const hub = await openEmbeddedStore(directory, { now: () => now, watch: false });
  const replica = await openEmbeddedStore(directory);
  t.teardown(async () => {
    await hub.close();
    await replica.close();
  });
  const clients = hub.collection<{ _id: string }>('clients');
  t.equal(await clients.findOne({ _id: 'registered' }), null);
  await replica.collection<{ _id: string }>('clients').insertOne({ _id: 'registered' });
  t.ok(await clients.findOne({ _id: 'registered' }), 'found within the staleness bound, the clock standing still');
});

/**
 * The hub's store on a folder of its own, without the folder watcher (the bound alone
 * applies) and on the test's clock (`clock.now`), and hub-admin's beside it.
 */
async function hubAndAdmin(t: { teardown(fn: () => unknown): void }, folder: string, clock: { now: number }): Promise<{ hub: Store; admin: Store }> {
  const directory = join(dataPath, folder);
  const hub = await openEmbeddedStore(directory, { now: () => clock.now, watch: false });
  const admin = await openEmbeddedStore(directory);
  t.teardown(async () => {
    await hub.close();
    await admin.close();
  });
  return { hub, admin };
}

t.test("reads do no file-system work of their own: another process's write is seen once the staleness bound has passed", async (t) => {
  const clock = { now: 1_000_000 };
  const { hub, admin } = await hubAndAdmin(t, 'staleness', clock);
  const markers = hub.collection<{ _id: string }>('markers');
  const bounded = { staleness: 'bounded' } as const;
  t.equal(await markers.findOne({ _id: 'revoked' }, bounded), null);
  await admin.collection<{ _id: string }>('markers').insertOne({ _id: 'revoked' });
  t.equal(await markers.findOne({ _id: 'revoked' }, bounded), null, 'a read within the bound answers from what this process read last');
  clock.now += MAX_STALENESS_MS - 1;
  t.equal(await markers.countDocuments({}), 0, 'until the bound has passed');
  clock.now += 1;
  t.ok(await markers.findOne({ _id: 'revoked' }, bounded), "then the other process's write is seen");

  await admin.collection<{ _id: string }>('markers').insertOne({ _id: 'second' });
  await markers.insertOne({ _id: 'mine' });
  t.same(
    (await markers.find({}, { sort: { _id: 1 } })).map(({ _id }) => _id),
    ['mine', 'revoked', 'second'],
    'a write reloads first, whatever the bound: nothing another process wrote is lost',
  );
});

t.test('a bounded lookup remembers a miss only until the documents may have changed: a write of its own or a reload shows the document at once', async (t) => {
  const clock = { now: 1_000_000 };
  const { hub, admin } = await hubAndAdmin(t, 'remembered-misses', clock);
  const markers = hub.collection<{ _id: string; expiresAt?: Date }>('remembered');
  const bounded = { staleness: 'bounded' } as const;
  t.equal(await markers.findOne({ _id: 'a' }, bounded), null, 'a miss');
  t.equal(await markers.findOne({ _id: 'a' }, bounded), null, 'the same miss again (remembered)');
  await markers.insertOne({ _id: 'a' });
  t.ok(await markers.findOne({ _id: 'a' }, bounded), "this process's own write is seen by the next bounded lookup");

  t.equal(await markers.findOne({ _id: 'b' }, bounded), null);
  await admin.collection<{ _id: string }>('remembered').insertOne({ _id: 'b' });
  clock.now += MAX_STALENESS_MS;
  t.ok(await markers.findOne({ _id: 'b' }, bounded), "another process's write is seen once the bound has passed, though the miss was remembered");

  t.equal(await markers.findOne({ _id: 'c' }, bounded), null);
  await markers.insertOne({ _id: 'unrelated' });
  await admin.collection<{ _id: string }>('remembered').insertOne({ _id: 'c' });
  await markers.insertOne({ _id: 'another' });
  t.ok(await markers.findOne({ _id: 'c' }, bounded), 'a write reloads what another process wrote, and a miss remembered before it is forgotten');
  t.same(
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => markers.findOne({ _id: id }, bounded).then((found) => found?._id ?? null))),
    ['a', 'b', 'c', null],
    'lookups side by side each get their own answer',
  );
});

t.test('a folder in the place of a collection file fails each read and write with a clear error, and the file coming back ends it', async (t) => {
  const { mkdir, rm } = await import('node:fs/promises');
  const directory = join(dataPath, 'folder-in-place');
  const store = await openEmbeddedStore(directory, { watch: false });
  t.teardown(() => store.close());
  const sessions = store.collection<{ _id: string }>('sessions');
  await sessions.insertOne({ _id: 'kept' });
  const file = join(directory, 'sessions.db');
  await rm(file);
  await mkdir(file);
  const reason = /the store's file .*sessions\.db is not a regular file \(a folder or something else is in its place\): move it away or restore the file/;
  await t.rejects(sessions.findOne({ _id: 'kept' }), reason, 'a read rejects, saying what is wrong and what to do');
  await t.rejects(sessions.findOne({ _id: 'kept' }), reason, 'and so does the next, rather than serving what was loaded before');
  await t.rejects(sessions.insertOne({ _id: 'new' }), reason, 'so does a write');
  await rm(file, { recursive: true });
  t.equal(await sessions.findOne({ _id: 'kept' }), null, 'the folder gone, the (now empty) collection is read again');
  await sessions.insertOne({ _id: 'new' });
  t.ok(await sessions.findOne({ _id: 'new' }), 'and written');
});
