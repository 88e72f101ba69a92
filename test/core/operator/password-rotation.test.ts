import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runHubAdmin } from '../../helpers/admin.js';
import { startTestHub, type TestHub } from '../../helpers/hub.js';
import { postOperatorLogin } from '../../helpers/operator-login.js';
import { waitFor } from '../children/helpers.js';

// Issue 60, item 3: a hub started with another operator password than the last start ends
// every operator session (a rotation after a leak wants everyone out);
// OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep keeps them; `hub-admin sessions revoke --all`
// ends them at any time. The hubs and hub-admin run in this process, each on its own
// opening of the store: what is asserted is the check at start and the command, not a process.

const config = { mcpServers: {}, plugins: { 'map-tools': false } };
const changed = /the operator password changed since the last start/;

interface LoggingHub extends TestHub {
  /** The hub's log records so far. */
  logs(): { level: number; msg: string }[];
}

async function start(t: Parameters<typeof startTestHub>[0], password: string, dataPath?: string, env: Record<string, string> = {}): Promise<LoggingHub> {
  const lines: string[] = [];
  const hub = await startTestHub(t, { config, ...(dataPath !== undefined && { dataPath }), env: { HUB_PASSWORD: password, ...env }, logs: lines });
  return { ...hub, logs: () => lines.map((line) => JSON.parse(line) as { level: number; msg: string }) };
}

/** The log record of the check at start, which is done, once the hub listens, before the start resolves. */
function rotationRecord(hub: LoggingHub): { level: number; msg: string } | undefined {
  return hub.logs().find((record) => changed.test(record.msg));
}

/** The session cookie a login with `password` starts. */
async function logIn(hub: TestHub, password: string): Promise<string> {
  const page = await fetch(`${hub.url}/status`);
  const answer = await postOperatorLogin(hub.url, '', page, await page.text(), password);
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('hub_session='));
  if (answer.status !== 303 || !cookie) throw new Error(`the login failed: ${answer.status}`);
  return cookie.split(';')[0] ?? '';
}

/** Whether the cookie's session opens the status page (rather than getting the login form). */
async function opens(hub: TestHub, cookie: string): Promise<boolean> {
  const page = await (await fetch(`${hub.url}/status`, { headers: { cookie } })).text();
  return !page.includes('name="password"');
}

t.test('a new password at start ends the operator sessions; keep keeps them; the same password keeps them', async (t) => {
  const first = await start(t, 'the first password');
  const cookie = await logIn(first, 'the first password');
  t.ok(await opens(first, cookie), 'logged in');
  await first.app.close();

  const same = await start(t, 'the first password', first.dataPath);
  t.ok(await opens(same, cookie), 'a restart with the same password keeps the session');
  await same.app.close();

  const rotated = await start(t, 'the second password', first.dataPath);
  t.match(rotationRecord(rotated), { level: 40, ended: 1, msg: /every operator session was ended \(OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep keeps them\)/ }, 'the log says so, and how to keep them');
  t.notOk(await opens(rotated, cookie), 'the old session is ended: the login form again');
  const second = await logIn(rotated, 'the second password');
  await rotated.app.close();

  const kept = await start(t, 'the third password', first.dataPath, { OPERATOR_SESSIONS_ON_PASSWORD_CHANGE: 'keep' });
  t.match(rotationRecord(kept), { level: 40, msg: /the operator sessions are kept/ }, 'keep: the log says the sessions are kept');
  t.ok(await opens(kept, second), 'OPERATOR_SESSIONS_ON_PASSWORD_CHANGE=keep keeps the sessions');
});

t.test('hub-admin sessions revoke --all ends every operator session at once', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'password-rotation-'));
  const env = { HUB_CONFIG: join(folder, 'mcp.json'), DATA_PATH: join(folder, 'data') };
  await writeFile(env.HUB_CONFIG, JSON.stringify(config));
  const hub = await start(t, 'a password', env.DATA_PATH);
  const one = await logIn(hub, 'a password');
  const two = await logIn(hub, 'a password');
  t.ok((await opens(hub, one)) && (await opens(hub, two)), 'two sessions');
  const usage = await runHubAdmin(env, 'sessions', 'revoke');
  t.equal(usage.code, 2, 'without --all: refused with the usage');
  t.match(usage.stderr, 'sessions revoke --all');
  t.ok(await opens(hub, one), 'and nothing ended');
  const revoked = await runHubAdmin(env, 'sessions', 'revoke', '--all');
  t.equal(revoked.code, 0, revoked.stderr);
  t.match(revoked.stdout, 'ended 2 operator sessions');
  // The hub reads another opening's write once its watcher has heard of it (within the store's staleness bound at most).
  await t.resolves(
    waitFor('the first session to be ended', async () => !(await opens(hub, one))),
    'the first session is ended',
  );
  t.notOk(await opens(hub, two), 'and the second');
});
