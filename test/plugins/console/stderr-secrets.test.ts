import { randomBytes } from 'node:crypto';
import t from 'tap';
import { operatorSession, PASSWORD, startConsoleHub } from './helpers.js';

/*
 * Issue 52: a failed Test shows the tail of the child's stderr; a child that prints what it
 * was given (a literal secret of its entry, a secret it took from the environment through
 * `${VAR}`, a bearer token, `password=...`) has each masked as literal secrets are, in the
 * stderr lines and in the error. Before the change, every one of them reached the page.
 */

t.test('a failed test’s stderr and error keep no secret', async (t) => {
  const literal = `lit-${randomBytes(8).toString('hex')}`;
  // A secret the entry takes from the hub's environment by reference: the test hub's HUB_PASSWORD.
  const fromEnv = PASSWORD;
  const bearer = randomBytes(10).toString('hex');
  const password = randomBytes(6).toString('hex');
  const config = JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: {} });
  const { url } = await startConsoleHub(t, config);
  const session = await operatorSession(url);
  const script = `echo "Error: refused $API_TOKEN and $DB_PASSWORD" >&2; echo "sent Authorization: Bearer ${bearer}" >&2; echo "password=${password} user=ann" >&2; sleep 1; exit 3`;
  const entry = { command: '/bin/sh', args: ['-c', script], env: { API_TOKEN: literal, DB_PASSWORD: '${HUB_PASSWORD}' } };
  const response = await fetch(`${url}/console/api/servers/leaky/test`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ entry }) });
  t.equal(response.status, 200, 'the test ran');
  const trial = (await response.json()) as { ok: boolean; error: string; stderr: string[] };
  t.equal(trial.ok, false, 'and failed');
  const shown = `${trial.error}\n${trial.stderr.join('\n')}`;
  t.match(shown, /Error: refused \[secret kept\] and \[secret kept\]/, 'the literal secrets of the entry are masked where the child printed them');
  t.match(shown, /Bearer \[secret kept\]/, 'a bearer token is masked');
  t.match(shown, /password=\[secret kept\] user=ann/, 'a password= value is masked, the rest of the line kept');
  for (const secret of [literal, fromEnv, bearer, password]) t.notOk(shown.includes(secret), 'no secret reaches the page');
});
