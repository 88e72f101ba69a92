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

// Issue 57: the revocation lookup's "not revoked" is reused per token within the staleness
// bound (no lookup, no chain of store promises per request), and a revocation made in
// this process bumps a count the reused answer is checked against, so it takes effect on
// the very next request. The lookups are counted on the real store's collection.
t.test("a token's 'not revoked' is reused within the bound, and a revocation made here is honoured at once", async (t) => {
  const directory = join(await mkdtemp(join(tmpdir(), 'revocation-')), 'store');
  let now = Date.now();
  const clock = () => now;
  const store = await openEmbeddedStore(directory, { now: clock, watch: false });
  t.teardown(() => store.close());
  const c = collections(store);
  let lookups = 0;
  const revocations = c.apiTokenRevocations;
  const counted = {
    ...c,
    apiTokenRevocations: Object.assign(Object.create(revocations) as typeof revocations, {
      findOne: (...args: Parameters<typeof revocations.findOne>) => ((lookups += 1), revocations.findOne(...args)),
    }),
  };
  const issuer = 'http://127.0.0.1:3000';
  const tokens = new ApiTokens(counted, issuer, clock);
  const kept = await tokens.mint('kept', 3600);
  const revoked = await tokens.mint('revoked', 3600);

  for (let request = 0; request < 5; request += 1) t.match(await tokens.verify(kept.token), { ok: true, id: kept.id });
  t.equal(lookups, 1, 'one lookup for five requests within the bound');
  now += MAX_STALENESS_MS;
  t.match(await tokens.verify(kept.token), { ok: true, id: kept.id });
  t.equal(lookups, 2, 'looked up again once the bound has passed');

  t.match(await tokens.verify(revoked.token), { ok: true, id: revoked.id });
  // Another ApiTokens of this process (as hub-admin's command may be) revokes it.
  t.equal(await new ApiTokens(c, issuer, clock).revoke(revoked.id), revoked.id);
  t.same(await tokens.verify(revoked.token), { ok: false, reason: `API token ${revoked.id} was revoked` }, 'refused on the next request, within the bound');
  t.match(await tokens.verify(kept.token), { ok: true, id: kept.id }, 'another token stays valid (looked up again)');
});

// Issue 57, third pass: the bearer check answers from `verifiedNow` without a promise, so it
// must hold exactly `verify`'s bounds: nothing for a token never checked, the checked
// answer within the staleness bound, nothing once it has passed or once this process
// revoked the token (the request then goes through `verify`, which refuses it).
t.test('verifiedNow answers only what verify would answer without a wait', async (t) => {
  const directory = join(await mkdtemp(join(tmpdir(), 'revocation-')), 'store');
  let now = Date.now();
  const clock = () => now;
  const store = await openEmbeddedStore(directory, { now: clock, watch: false });
  t.teardown(() => store.close());
  const c = collections(store);
  const issuer = 'http://127.0.0.1:3000';
  const tokens = new ApiTokens(c, issuer, clock);
  const minted = await tokens.mint('now', 3600);

  t.equal(tokens.verifiedNow(minted.token), undefined, 'a token never checked is left to verify');
  t.equal(tokens.verifiedNow('not.a.token'), undefined, 'so is one that is not a token');
  t.match(await tokens.verify(minted.token), { ok: true, id: minted.id });
  t.match(tokens.verifiedNow(minted.token), { ok: true, id: minted.id }, 'answered at once within the bound');
  now += MAX_STALENESS_MS;
  t.equal(tokens.verifiedNow(minted.token), undefined, 'left to verify once the bound has passed');
  t.match(await tokens.verify(minted.token), { ok: true, id: minted.id });
  t.match(tokens.verifiedNow(minted.token), { ok: true, id: minted.id });
  t.equal(await new ApiTokens(c, issuer, clock).revoke(minted.id), minted.id);
  t.equal(tokens.verifiedNow(minted.token), undefined, 'a revocation made in this process is never answered from memory');
  t.same(await tokens.verify(minted.token), { ok: false, reason: `API token ${minted.id} was revoked` });
});
