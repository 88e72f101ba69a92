import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { openStoreLazily } from '../../../core/store/index.js';
import { startTestHub } from '../../helpers/hub.js';

t.test('the hub opens its store on first use and closes it with the app', async (t) => {
  const started = await startTestHub(t);
  t.notOk(existsSync(join(started.dataPath, 'store')), 'a hub that never uses the store creates no files');
  t.equal(started.hub.store.kind, 'embedded');
  const notes = started.hub.store.collection<{ _id: string; text: string }>('notes');
  await notes.insertOne({ _id: 'n', text: 'kept' });
  t.ok(existsSync(join(started.dataPath, 'store', 'notes.db')));
  await started.app.close();

  const reopened = openStoreLazily({ dataPath: started.dataPath });
  t.teardown(() => reopened.close());
  t.match(await reopened.collection<{ _id: string; text: string }>('notes').findOne({ _id: 'n' }), { text: 'kept' });
});

t.test('a store that cannot open fails the operation, and the next operation tries again', async (t) => {
  const blocked = join(t.testdir(), 'not-a-folder');
  await writeFile(blocked, '');
  const store = openStoreLazily({ dataPath: blocked });
  const things = store.collection<{ _id: string }>('things');
  await t.rejects(things.findOne({ _id: 'x' }), { code: 'HUB_ERR_STORE_UNAVAILABLE' });
  await t.rejects(things.insertOne({ _id: 'x' }), { code: 'HUB_ERR_STORE_UNAVAILABLE' });
  await store.close();
  await store.close();
});
