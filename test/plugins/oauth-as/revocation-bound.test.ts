import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { MAX_STALENESS_MS, openEmbeddedStore } from '../../../core/store/embedded.js';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';

// Issue 26, item 3: the revocation lookup of an API token costs no file-system work per
// request on the embedded store, and a revocation by hub-admin (another process on the
// same files) is still honoured within the store's staleness bound. Clocks are the test's.
t.test('a token revoked by hub-admin is refused within the staleness bound, without a look at the file per request', async (t) => {
  const directory = join(await mkdtemp(join(tmpdir(), 'revocation-')), 'store');
  let now = Date.now();
  const clock = () => now;
  const hubStore = await openEmbeddedStore(directory, { now: clock, watch: false });
  const adminStore = await openEmbeddedStore(directory);
  t.teardown(async () => {
    await hubStore.close();
    await adminStore.close();
  });
  const issuer = 'http://127.0.0.1:3000';
  const hub = new ApiTokens(collections(hubStore), issuer, clock);
  const admin = new ApiTokens(collections(adminStore), issuer);
  const { token, id } = await hub.mint('bound', 3600);
  t.match(await hub.verify(token), { ok: true, id });

  t.equal(await admin.revoke(id), id);
  t.match(await hub.verify(token), { ok: true }, 'within the bound, the request is answered from what the hub read last');
  now += MAX_STALENESS_MS;
  t.same(await hub.verify(token), { ok: false, reason: `API token ${id} was revoked` }, 'once it has passed, the revocation is honoured');
});
