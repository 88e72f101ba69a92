import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';
import { DuplicateKeyError, type Store } from '../../../core/store/index.js';
import { runNode } from '../../helpers/cli.js';

interface Family {
  _id: string;
  current: string;
  generation: number;
  client?: string;
  note?: string;
}

interface Expiring {
  _id: string;
  expiresAt: Date;
}

export interface ContractTarget {
  /** Opens the store under test; each call is a fresh handle on the same data. */
  open(): Promise<Store>;
  /** Environment that makes `store-process.js` open the same data. */
  env: Record<string, string>;
}

const storeProcess = fileURLToPath(new URL('./store-process.js', import.meta.url));

/** Collection names are unique per run so that MongoDB runs do not see each other. */
function fresh(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** The behaviour every store adapter must have; run by each adapter's test file. */
export function storeContract(t: Test, target: ContractTarget): void {
  let store: Store;
  t.before(async () => {
    store = await target.open();
  });
  t.teardown(() => store.close());

  t.test('insert, find, update and delete', async (t) => {
    const families = store.collection<Family>(fresh('basic'));
    await families.createIndex('client');
    for (let index = 0; index < 5; index++) {
      await families.insertOne({ _id: `f${index}`, current: `t${index}`, generation: index, client: index % 2 ? 'odd' : 'even' });
    }
    t.match(await families.findOne({ _id: 'f3' }), { _id: 'f3', current: 't3', generation: 3, client: 'odd' });
    t.equal(await families.findOne({ _id: 'nope' }), null);
    t.same(
      (await families.find({ client: 'even' }, { sort: { generation: -1 } })).map((f) => f._id),
      ['f4', 'f2', 'f0'],
    );
    t.same(
      (await families.find({ generation: { $gte: 1 } }, { sort: { generation: 1 }, limit: 2 })).map((f) => f._id),
      ['f1', 'f2'],
    );
    t.same(
      (await families.find({ _id: { $in: ['f0', 'f4', 'x'] } }, { sort: { generation: 1 } })).map((f) => f._id),
      ['f0', 'f4'],
    );
    t.same(
      (await families.find({ $or: [{ _id: 'f0' }, { generation: { $gt: 3 } }] }, { sort: { generation: 1 } })).map((f) => f._id),
      ['f0', 'f4'],
    );
    t.same((await families.find({ note: { $exists: true } })).length, 0);
    t.equal(await families.countDocuments({}), 5);
    t.equal(await families.countDocuments({ client: 'odd', generation: { $gte: 3 } }), 1);

    t.equal(await families.updateMany({ client: 'odd' }, { $set: { note: 'odd one' }, $inc: { generation: 10 } }), 2);
    t.match(await families.findOne({ _id: 'f1' }), { note: 'odd one', generation: 11 });
    const unset = await families.findOneAndUpdate({ _id: 'f1' }, { $unset: { note: true } });
    t.equal(unset?.note, undefined, 'findOneAndUpdate returns the document after the update');
    t.equal(unset?.generation, 11);
    t.equal(await families.findOneAndUpdate({ _id: 'nope' }, { $set: { note: 'x' } }), null);

    t.equal(await families.deleteOne({ client: 'even' }), 1);
    t.equal(await families.deleteMany({ client: 'even' }), 2);
    t.equal(await families.deleteOne({ client: 'even' }), 0);
    t.same(
      (await families.find({}, { sort: { _id: 1 } })).map((f) => f._id),
      ['f1', 'f3'],
    );
  });

  t.test('documents are stored as given: dates stay dates, the input is not modified', async (t) => {
    const expiring = store.collection<Expiring>(fresh('dates'));
    const document = { _id: 'd', expiresAt: new Date('2040-01-02T03:04:05.000Z') };
    await expiring.insertOne(document);
    t.same(Object.keys(document), ['_id', 'expiresAt']);
    const found = await expiring.findOne({ _id: 'd' });
    t.ok(found?.expiresAt instanceof Date);
    t.equal(found?.expiresAt.toISOString(), '2040-01-02T03:04:05.000Z');
  });

  t.test('unique indexes and _id refuse duplicates', async (t) => {
    const families = store.collection<Family>(fresh('unique'));
    await families.createIndex('current', { unique: true });
    await families.createIndex('current', { unique: true });
    await families.insertOne({ _id: 'a', current: 'x', generation: 0 });
    await t.rejects(families.insertOne({ _id: 'a', current: 'y', generation: 0 }), DuplicateKeyError);
    await t.rejects(families.insertOne({ _id: 'b', current: 'x', generation: 0 }), DuplicateKeyError);
    await families.insertOne({ _id: 'b', current: 'y', generation: 0 });
    await t.rejects(families.findOneAndUpdate({ _id: 'b' }, { $set: { current: 'x' } }), DuplicateKeyError);
    t.match(await families.findOne({ _id: 'b' }), { current: 'y' }, 'a refused update changes nothing');
  });

  t.test('50 concurrent rotations of one refresh token: exactly one wins', async (t) => {
    const families = store.collection<Family>(fresh('rotate'));
    await families.insertOne({ _id: 'family', current: 'token-0', generation: 0 });
    const attempts = await Promise.all(
      Array.from({ length: 50 }, (_, index) => families.findOneAndUpdate({ _id: 'family', current: 'token-0' }, { $set: { current: `token-from-${index}` }, $inc: { generation: 1 } })),
    );
    const winners = attempts.filter((attempt) => attempt !== null);
    t.equal(winners.length, 1);
    const stored = await families.findOne({ _id: 'family' });
    t.equal(stored?.generation, 1);
    t.equal(stored?.current, winners[0]?.current);
  });

  t.test('concurrent rotations from several processes: exactly one wins', async (t) => {
    const name = fresh('race');
    const families = store.collection<Family>(name);
    await families.insertOne({ _id: 'family', current: 'token-0', generation: 0 });
    const others = Array.from({ length: 3 }, (_, index) => runNode(storeProcess, ['rotate', name, 'family', 'token-0', `child-${index}`], target.env));
    const mine = families.findOneAndUpdate({ _id: 'family', current: 'token-0' }, { $set: { current: 'parent' } });
    const results = await Promise.all(others);
    for (const result of results) t.equal(result.code, 0, result.stderr);
    const wins = results.filter((result) => result.stdout === 'won').length + ((await mine) ? 1 : 0);
    t.equal(wins, 1);
  });

  t.test('TTL: an expired document is invisible to every operation', async (t) => {
    const expiring = store.collection<Expiring & { n?: number }>(fresh('ttl'));
    await expiring.createIndex('expiresAt', { expireAfterSeconds: 0 });
    const hour = 3_600_000;
    await expiring.insertOne({ _id: 'old', expiresAt: new Date(Date.now() - hour) });
    await expiring.insertOne({ _id: 'new', expiresAt: new Date(Date.now() + hour) });
    t.equal(await expiring.findOne({ _id: 'old' }), null);
    t.same(
      (await expiring.find({})).map((d) => d._id),
      ['new'],
    );
    t.same(
      (await expiring.find({ $or: [{ _id: 'old' }, { _id: 'new' }] })).map((d) => d._id),
      ['new'],
    );
    t.equal(await expiring.countDocuments({}), 1);
    t.equal(await expiring.findOneAndUpdate({ _id: 'old' }, { $set: { n: 1 } }), null);
    t.equal(await expiring.updateMany({}, { $set: { n: 2 } }), 1);
    t.equal(await expiring.deleteMany({ _id: 'old' }), 0);
    t.match(await expiring.findOne({ _id: 'new' }), { n: 2 });

    const delayed = store.collection<Expiring>(fresh('ttl'));
    await delayed.createIndex('expiresAt', { expireAfterSeconds: 7200 });
    await delayed.insertOne({ _id: 'within', expiresAt: new Date(Date.now() - hour) });
    t.ok(await delayed.findOne({ _id: 'within' }), 'expireAfterSeconds is added to the date');
  });

  t.test('durable across processes: written by another process, seen here and after reopening', async (t) => {
    const name = fresh('durable');
    const families = store.collection<Family>(name);
    t.equal(await families.findOne({ _id: 'from-child' }), null);
    const written = await runNode(storeProcess, ['insert', name, JSON.stringify({ _id: 'from-child', current: 'c', generation: 7 })], target.env);
    t.equal(written.code, 0, written.stderr);
    t.match(await families.findOne({ _id: 'from-child' }), { generation: 7 }, "an open store sees another process's write");
    await families.insertOne({ _id: 'from-parent', current: 'p', generation: 8 });

    const reopened = await target.open();
    t.teardown(() => reopened.close());
    t.same(
      (await reopened.collection<Family>(name).find({}, { sort: { generation: 1 } })).map((f) => f._id),
      ['from-child', 'from-parent'],
    );
  });

  t.test('a process writing without pause does not shut another process out', async (t) => {
    const name = fresh('busy');
    const busy = store.collection<Family>(name);
    const other = runNode(storeProcess, ['insert', name, JSON.stringify({ _id: 'from-child', current: 'c', generation: 0 })], target.env);
    // `boolean`, not the `false` it starts as: the callback sets it while the loop awaits.
    let finished = false as boolean;
    void other.finally(() => (finished = true));
    let writes = 0;
    while (!finished) await busy.insertOne({ _id: `busy-${writes++}`, current: 'b', generation: writes });
    const result = await other;
    t.equal(result.code, 0, result.stderr);
    t.ok(await busy.findOne({ _id: 'from-child' }), "the other process's write landed");
  });

  t.test('collection names are checked', async (t) => {
    t.throws(() => store.collection('../escape'), { code: 'HUB_ERR_STORE_NAME_INVALID' });
  });
}
