import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { startTestHub } from '../../helpers/hub.js';

// Issue 44, S9: a store failure while checking an operator session was an HTTP 500, and a
// collection file of the embedded store replaced by a folder made NeDB throw EISDIR outside
// every promise, ending the process. Now the page is a 503 that says why, the hub goes on,
// and the next request after the file is back is served as before.

const PASSWORD = 'correct horse battery';

/** Logs in through the status page's form; the cookies of the logged-in browser. */
async function logIn(url: string): Promise<string> {
  const first = await fetch(`${url}/status`);
  const cookie = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await first.text())?.[1] ?? '';
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, password: PASSWORD, return_to: '/status' }).toString(),
  });
  return [cookie, ...login.headers.getSetCookie().map((line) => line.split(';')[0])].join('; ');
}

t.test("a session the store cannot check is a 503 page, and a folder in a collection file's place an error on its path", async (t) => {
  const logs: string[] = [];
  const { url, dataPath } = await startTestHub(t, { env: { HUB_PASSWORD: PASSWORD }, config: { mcpServers: {}, plugins: { 'map-tools': false, observability: true } }, logs });
  const session = await logIn(url);
  const before = await fetch(`${url}/status`, { headers: { cookie: session } });
  t.equal(before.status, 200, 'the logged-in operator sees the status page');
  t.notMatch(await before.text(), /name="password"/, 'not the login form');

  const file = join(dataPath, 'store', 'operator-sessions.db');
  await rm(file);
  await mkdir(file);
  const failed = await fetch(`${url}/status`, { headers: { cookie: session } });
  t.equal(failed.status, 503, 'a 503, not a 500');
  t.equal(failed.headers.get('retry-after'), '5', 'with Retry-After');
  t.match(failed.headers.get('content-type'), /^text\/html/, 'a page for a person');
  const text = await failed.text();
  t.match(text, /<h1>Cannot check the login<\/h1>/);
  t.match(text, /its store does not answer/);
  t.notMatch(text, /operator-sessions|EISDIR|at /, 'neither the file nor a stack on the page');
  t.ok(
    logs.some((line) => line.includes('an operator session could not be checked') && line.includes('is not a regular file')),
    'the reason is logged',
  );
  t.equal((await fetch(`${url}/livez`)).status, 200, 'the hub is still up');

  await rm(file, { recursive: true });
  const after = await fetch(`${url}/status`, { headers: { cookie: session } });
  t.equal(after.status, 200, 'with the folder gone the page is served again');
  t.match(await after.text(), /name="password"/, 'asking for a login, the sessions having gone with the file');
});
