import t from 'tap';
import { collections } from '../../../plugins/oauth-as/records.js';
import { exchangeCode, obtainCode, probe, refresh, registerClient } from './flows.js';
import { startOAuthHub } from './oauth-hub.js';

async function loggedIn(t: Parameters<typeof startOAuthHub>[0], plugin?: Record<string, unknown>) {
  const { url, hub } = await startOAuthHub(t, plugin ? { plugin } : {});
  const client = await registerClient(url);
  const { code, verifier } = await obtainCode(url, client);
  const tokens = await exchangeCode(url, client, code, verifier);
  return { url, hub, client, tokens: tokens.body };
}

t.test('a rotation whose answer was lost (a hub killed mid-rotation) is retried with the same answer, not revoked', async (t) => {
  const { url, client, tokens } = await loggedIn(t);
  const lost = await refresh(url, client, tokens.refresh_token);
  t.equal(lost.status, 200);
  const retried = await refresh(url, client, tokens.refresh_token);
  t.equal(retried.status, 200, 'the retry is answered');
  t.equal(retried.body.refresh_token, lost.body.refresh_token, 'with the same refresh token');
  t.equal(retried.body.access_token, lost.body.access_token, 'and the same access token');
  t.equal(await probe(url, retried.body.access_token), 200);
  const next = await refresh(url, client, retried.body.refresh_token);
  t.equal(next.status, 200, 'the family goes on');
  t.not(next.body.refresh_token, retried.body.refresh_token);
});

t.test('the retry cannot open a second chain: whoever lags behind revokes the family', async (t) => {
  const { url, client, tokens } = await loggedIn(t);
  const alice = await refresh(url, client, tokens.refresh_token);
  const mallory = await refresh(url, client, tokens.refresh_token);
  t.equal(mallory.body.refresh_token, alice.body.refresh_token, 'both hold the one successor, not two');
  const aliceNext = await refresh(url, client, alice.body.refresh_token);
  t.equal(aliceNext.status, 200);
  const malloryNext = await refresh(url, client, mallory.body.refresh_token);
  t.equal(malloryNext.status, 400, 'the successor used twice is a replay');
  t.equal(await probe(url, aliceNext.body.access_token), 401, 'the whole family is revoked');
  t.equal((await refresh(url, client, aliceNext.body.refresh_token)).status, 400);
  t.equal((await refresh(url, client, tokens.refresh_token)).status, 400, 'the first token too');
});

t.test('a retry after the successor was used, or after the grace window, revokes the family', async (t) => {
  const used = await loggedIn(t);
  const rotated = await refresh(used.url, used.client, used.tokens.refresh_token);
  const onward = await refresh(used.url, used.client, rotated.body.refresh_token);
  t.equal((await refresh(used.url, used.client, used.tokens.refresh_token)).status, 400);
  t.equal(await probe(used.url, onward.body.access_token), 401);

  const late = await loggedIn(t);
  const lost = await refresh(late.url, late.client, late.tokens.refresh_token);
  // The grace window has passed: the rotation is moved back in time rather than waited for.
  await collections(late.hub.store).families.updateMany({}, { $set: { rotatedAt: new Date(Date.now() - 3600_000) } });
  t.equal((await refresh(late.url, late.client, late.tokens.refresh_token)).status, 400);
  t.equal(await probe(late.url, lost.body.access_token), 401);

  const strict = await loggedIn(t, { refreshRetrySeconds: 0 });
  await refresh(strict.url, strict.client, strict.tokens.refresh_token);
  t.equal((await refresh(strict.url, strict.client, strict.tokens.refresh_token)).status, 400, 'refreshRetrySeconds 0: every reuse revokes');
});

t.test('concurrent refreshes with one token all get the one successor', async (t) => {
  const { url, client, tokens } = await loggedIn(t);
  const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(url, client, tokens.refresh_token)));
  t.same(new Set(answers.map((answer) => answer.status)), new Set([200]));
  t.equal(new Set(answers.map((answer) => answer.body.refresh_token)).size, 1, 'one successor');
  t.equal(new Set(answers.map((answer) => answer.body.access_token)).size, 1, 'one access token');
  t.equal((await refresh(url, client, answers[0]?.body.refresh_token)).status, 200);
});
