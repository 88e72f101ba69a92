import t from 'tap';
import { exchangeCode, obtainCode, probe, refresh, registerClient } from './flows.js';
import { startOAuthHub } from './oauth-hub.js';

t.test('a code presented by another client, or with a wrong verifier, is refused without being used up', async (t) => {
  const { url } = await startOAuthHub(t);
  const owner = await registerClient(url);
  const thief = await registerClient(url);
  const { code, verifier } = await obtainCode(url, owner);

  const stolen = await exchangeCode(url, thief, code, verifier);
  t.equal(stolen.status, 400);
  t.equal(stolen.body.error, 'invalid_grant');
  // The last character changed to one it cannot already be, so the verifier is always wrong.
  const guessed = await exchangeCode(url, owner, code, `${verifier.slice(0, -1)}${verifier.endsWith('A') ? 'B' : 'A'}`);
  t.equal(guessed.status, 400, 'a wrong PKCE verifier is refused');
  const misdirected = await exchangeCode(url, { ...owner, redirect_uri: 'http://127.0.0.1:5555/other' }, code, verifier);
  t.equal(misdirected.status, 400, 'so is a different redirect_uri');

  const real = await exchangeCode(url, owner, code, verifier);
  t.equal(real.status, 200, 'the client the code was issued to still exchanges it');
  t.equal(await probe(url, real.body.access_token), 200);
});

t.test('a replayed code is refused and revokes the tokens issued from it', async (t) => {
  const { url } = await startOAuthHub(t);
  const client = await registerClient(url);
  const other = await obtainCode(url, client);
  const { code, verifier } = await obtainCode(url, client);
  const first = await exchangeCode(url, client, code, verifier);
  t.equal(first.status, 200);
  const untouched = await exchangeCode(url, client, other.code, other.verifier);
  t.equal(await probe(url, first.body.access_token), 200);

  const replay = await exchangeCode(url, client, code, verifier);
  t.equal(replay.status, 400);
  t.equal(replay.body.error, 'invalid_grant');
  t.equal(await probe(url, first.body.access_token), 401, 'the access token issued from the code is withdrawn');
  t.equal((await refresh(url, client, first.body.refresh_token)).status, 400, 'and so is the refresh token');
  t.equal(await probe(url, untouched.body.access_token), 200, 'tokens from another code are not');
});

// Issue 44, S5: concurrent exchanges all failed (the loser marked a replay that revoked the
// winner's family). A client's double submit must not lose the login.
t.test('of concurrent exchanges of one code exactly one wins, and keeps its tokens until the code is replayed after it', async (t) => {
  const { url } = await startOAuthHub(t);
  const client = await registerClient(url);
  for (const parallel of [2, 20]) {
    const { code, verifier } = await obtainCode(url, client);
    const answers = await Promise.all(Array.from({ length: parallel }, () => exchangeCode(url, client, code, verifier)));
    const winners = answers.filter((answer) => answer.status === 200);
    t.equal(winners.length, 1, `${parallel} at once: exactly one exchange succeeds`);
    t.same(new Set(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.error}`)), new Set(['400 invalid_grant']), 'the others are refused');
    const [winner] = winners;
    // Whether a loser was answered while the winner was still issuing (refused, nothing
    // withdrawn) or after it (a replay, which withdraws the winner's tokens) depends on the
    // order the requests were served in; the winner's token must follow what the losers were told.
    const losers = answers.filter((answer) => answer.status !== 200);
    const allDuring = losers.every((answer) => /being exchanged by another request/.test(String(answer.body.error_description)));
    t.equal(await probe(url, winner?.body.access_token), allDuring ? 200 : 401, allDuring ? 'no exchange came after the winner\'s success: its token works' : 'an exchange came after the winner\'s success: a replay, which withdrew its token');
    t.equal((await exchangeCode(url, client, code, verifier)).status, 400, 'presented again once it was exchanged');
    t.equal(await probe(url, winner?.body.access_token), 401, 'that replay withdraws what the winner got (RFC 6749 10.5)');
  }
});
