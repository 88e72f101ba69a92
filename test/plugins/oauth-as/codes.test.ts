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

/** The shortest lifetime of a code the options allow, so that the tests can outlive it. */
const CODE_SECONDS = 10;
const outliveTheCode = () => new Promise((resolve) => setTimeout(resolve, CODE_SECONDS * 1000 + 500));

t.test('a code presented again after its lifetime is a replay: refused, and the tokens issued from it are revoked', async (t) => {
  const { url } = await startOAuthHub(t, { plugin: { authorizationCodeSeconds: CODE_SECONDS } });
  const client = await registerClient(url);
  const other = await obtainCode(url, client);
  const { code, verifier } = await obtainCode(url, client);
  const first = await exchangeCode(url, client, code, verifier);
  t.equal(first.status, 200);
  const untouched = await exchangeCode(url, client, other.code, other.verifier);
  t.equal(await probe(url, first.body.access_token), 200);

  await outliveTheCode();
  const replay = await exchangeCode(url, client, code, verifier);
  t.equal(replay.status, 400);
  t.equal(replay.body.error, 'invalid_grant');
  t.match(replay.body.error_description, /already used; the tokens issued from it are revoked/);
  t.equal(await probe(url, first.body.access_token), 401, 'the access token issued from the code is withdrawn');
  t.equal((await refresh(url, client, first.body.refresh_token)).status, 400, 'and so is the refresh token');
  t.equal(await probe(url, untouched.body.access_token), 200, 'tokens from another code are not');
});

// Issue 44, S5: concurrent exchanges all failed (the loser marked a replay that revoked the
// winner's family). Issue 54.6: in 1 of 3 rounds of 20, a duplicate answered after the
// winner's success still counted as a replay and revoked the winner's login. A client's
// double submit must not lose the login: a duplicate within the code's lifetime is refused
// and revokes nothing.
t.test("of concurrent exchanges of one code exactly one wins, and a duplicate within the code's lifetime revokes nothing", async (t) => {
  const { url } = await startOAuthHub(t);
  const client = await registerClient(url);
  for (const parallel of [2, 20, 20, 20]) {
    const { code, verifier } = await obtainCode(url, client);
    const answers = await Promise.all(Array.from({ length: parallel }, () => exchangeCode(url, client, code, verifier)));
    const winners = answers.filter((answer) => answer.status === 200);
    t.equal(winners.length, 1, `${parallel} at once: exactly one exchange succeeds`);
    t.same(new Set(answers.filter((answer) => answer.status !== 200).map((answer) => `${answer.status} ${answer.body.error}`)), new Set(['400 invalid_grant']), 'the others are refused');
    const [winner] = winners;
    t.equal(await probe(url, winner?.body.access_token), 200, "whenever the others were answered, the winner's token works");
    const again = await exchangeCode(url, client, code, verifier);
    t.same(
      { status: again.status, description: again.body.error_description },
      { status: 400, description: 'the authorization code was already used' },
      'presented again within its lifetime: refused',
    );
    t.equal(await probe(url, winner?.body.access_token), 200, 'and the winner keeps its login');
    t.equal((await refresh(url, client, winner?.body.refresh_token)).status, 200, 'its refresh token too');
  }
});
