import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import Fastify from 'fastify';
import type { Hub } from '../../../core/hub.js';
import { hub, onKernel } from '../../../core/kernel.js';
import { openStoreLazily } from '../../../core/store/index.js';
import { startTestHub } from '../../helpers/hub.js';

t.test('the hub opens its store on first use and closes it with the app', async (t) => {
  // Built and not serving, as hub-admin builds it: a serving hub uses its store before its
  // first request (the operator sessions after a password change, the URL it serves on).
  const dataPath = join(t.testdir(), 'data');
  const app = Fastify({ logger: false });
  let kernel: Hub | undefined;
  await app.register(hub, { config: { mcpServers: {}, plugins: { 'map-tools': false, 'oauth-as': false } }, env: { DATA_PATH: dataPath }, [onKernel]: (created) => void (kernel = created) });
  await app.ready();
  t.teardown(() => app.close());
  if (!kernel) throw new Error('the hub plugin did not hand over the kernel');
  t.notOk(existsSync(join(dataPath, 'store')), 'a hub that never uses the store creates no files');
  t.equal(kernel.store.kind, 'embedded');
  const notes = kernel.store.collection<{ _id: string; text: string }>('notes');
  await notes.insertOne({ _id: 'n', text: 'kept' });
  t.ok(existsSync(join(dataPath, 'store', 'notes.db')));
  await app.close();

  const served = await startTestHub(t);
  t.ok(existsSync(join(served.dataPath, 'store')), 'a serving hub has used it before its start is done');

  const reopened = openStoreLazily({ dataPath });
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
