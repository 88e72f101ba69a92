import t from 'tap';
import { cliPath, runNode } from '../../helpers/cli.js';
import { startHubBin, type HubBin } from '../../helpers/hub-bin.js';
import { postOperatorLogin } from '../../helpers/operator-login.js';

// Issue 60, item 3: a hub started with another operator password than the last start ends
// every operator session (a rotation after a leak wants everyone out);
// OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep keeps them; `hub-admin sessions revoke --all`
// ends them at any time.

const config = { mcpServers: {}, plugins: { 'map-tools': false } };
const changed = /the operator password changed since the last start/;

async function start(t: Parameters<typeof startHubBin>[0], password: string, dataPath?: string, env: Record<string, string> = {}): Promise<HubBin> {
  return startHubBin(t, { config, ...(dataPath !== undefined && { dataPath }), env: { HUB_PASSWORD: password, LOG_LEVEL: 'info', ...env } });
}

/** The session cookie a login with `password` starts. */
async function logIn(hub: HubBin, password: string): Promise<string> {
  const page = await fetch(`${hub.url}/status`);
  const answer = await postOperatorLogin(hub.url, '', page, await page.text(), password);
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('hub_session='));
  if (answer.status !== 303 || !cookie) throw new Error(`the login failed: ${answer.status}`);
  return cookie.split(';')[0] ?? '';
}

/** Whether the cookie's session opens the status page (rather than getting the login form). */
async function opens(hub: HubBin, cookie: string): Promise<boolean> {
  const page = await (await fetch(`${hub.url}/status`, { headers: { cookie } })).text();
  return !page.includes('name="password"');
}

t.test('a new password at start ends the operator sessions; keep keeps them; the same password keeps them', async (t) => {
  const first = await start(t, 'the first password');
  const cookie = await logIn(first, 'the first password');
  t.ok(await opens(first, cookie), 'logged in');
  await first.stop();

  const same = await start(t, 'the first password', first.dataPath);
  t.ok(await opens(same, cookie), 'a restart with the same password keeps the session');
  await same.stop();

  const rotated = await start(t, 'the second password', first.dataPath);
  const record = await rotated.waitForLog('the rotation', (line) => changed.test(line.msg));
  t.match(record, { level: 40, ended: 1, msg: /every operator session was ended \(OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep keeps them\)/ }, 'the log says so, and how to keep them');
  t.notOk(await opens(rotated, cookie), 'the old session is ended: the login form again');
  const second = await logIn(rotated, 'the second password');
  await rotated.stop();

  const kept = await start(t, 'the third password', first.dataPath, { OPERATOR_SESSIONS_ON_PASSWORD_CHANGE: 'keep' });
  await kept.waitForLog('the rotation kept', (line) => changed.test(line.msg));
  t.ok(await opens(kept, second), 'OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep keeps the sessions');
});

t.test('hub-admin sessions revoke --all ends every operator session at once', async (t) => {
  const hub = await start(t, 'a password');
  const one = await logIn(hub, 'a password');
  const two = await logIn(hub, 'a password');
  t.ok((await opens(hub, one)) && (await opens(hub, two)), 'two sessions');
  const usage = await runNode(cliPath('hub-admin'), ['sessions', 'revoke'], hub.env);
  t.equal(usage.code, 2, 'without --all: refused with the usage');
  t.match(usage.stderr, 'sessions revoke --all');
  t.ok(await opens(hub, one), 'and nothing ended');
  const revoked = await runNode(cliPath('hub-admin'), ['sessions', 'revoke', '--all'], hub.env);
  t.equal(revoked.code, 0, revoked.stderr);
  t.match(revoked.stdout, 'ended 2 operator sessions');
  t.notOk(await opens(hub, one), 'the first session is ended');
  t.notOk(await opens(hub, two), 'and the second');
});
