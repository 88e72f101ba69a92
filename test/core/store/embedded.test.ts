import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openStore } from '../../../core/store/index.js';
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
