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

t.test('of concurrent exchanges of one code, one wins and the replays revoke what it got', async (t) => {
  const { url } = await startOAuthHub(t);
  const client = await registerClient(url);
  const { code, verifier } = await obtainCode(url, client);
  const answers = await Promise.all(Array.from({ length: 8 }, () => exchangeCode(url, client, code, verifier)));
  t.ok(answers.filter((answer) => answer.status === 200).length <= 1, 'at most one exchange succeeds');
  t.equal(answers.filter((answer) => answer.status === 400).length >= 7, true, 'the others are refused');
  for (const answer of answers.filter((one) => one.status === 200)) t.equal(await probe(url, answer.body.access_token), 401, 'and the winner\'s tokens are withdrawn');
});
