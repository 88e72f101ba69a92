import t from 'tap';
import { openStore } from '../../../core/store/index.js';
import { storeContract } from './contract.js';

const mongodbUrl = process.env.MONGODB_URL;

t.test('mongodb store contract', { skip: mongodbUrl ? false : 'MONGODB_URL is not set: the MongoDB adapter is not exercised here' }, async (t) => {
  const url = mongodbUrl ?? '';
  storeContract(t, { open: () => openStore({ dataPath: '', mongodbUrl: url }), env: { MONGODB_URL: url } });
  t.test('the store says which adapter it is', async (t) => {
    const store = await openStore({ dataPath: '', mongodbUrl: url });
    t.equal(store.kind, 'mongodb');
    await store.close();
  });
});
