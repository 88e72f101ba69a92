import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { approve, pkce } from './browserless.js';
import { startHubProcess } from './hub-process.js';
import { startStandaloneHub } from '../../helpers/hub.js';

const REDIRECT = 'http://127.0.0.1:5555/callback';

/** Logs in once with `password`, which also means the hub has settled its password. */
async function logIn(hub: { url: string }, password: string): Promise<URL> {
  const registered = await fetch(`${hub.url}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
  const { client_id } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({ response_type: 'code', client_id, redirect_uri: REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256' });
  return approve(`${hub.url}/authorize?${query}`, password);
}

/**
 * What this process writes on `stream` until the test ends, still written through: for
 * the hubs started in this process, what the hub bin would have printed there.
 */
function written(t: { teardown(fn: () => unknown): void }, stream: NodeJS.WriteStream): () => string {
  let text = '';
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    text += Buffer.from(chunk).toString();
    return write(chunk, ...rest);
  };
  t.teardown(() => void (stream.write = write));
  return () => text;
}

// The hub bin's first start is a real process: the password printed on its stderr, in
// readable-log mode, is the subject. The restart and the other cases run the standalone
// hub (what the bin runs) in this process, its log going to a file.

t.test('without HUB_PASSWORD, one is generated at first start and printed that once (readable logs)', async (t) => {
  const first = await startHubProcess(t, { env: { HUB_PASSWORD: undefined, LOG_FORMAT: 'pretty' } });
  const file = join(first.dataPath, 'hub-password');
  // Generated as the hub starts listening, which may be just after /health first answers.
  let password = '';
  for (let tries = 0; !password && tries < 600; tries++) {
    password = await readFile(file, 'utf8').then(
      (text) => text.trim(),
      () => '',
    );
    if (!password) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.ok(password.length >= 20, 'a long random password');
  t.equal((await stat(file)).mode & 0o777, 0o600, 'readable by the owner only');
  t.ok((await logIn(first, password)).searchParams.get('code'), 'it opens the approval pages');
  t.ok(first.stderr().includes(password), 'the first start prints it');
  t.match(first.stderr(), 'will not be printed again');
  await first.stop();

  const stderr = written(t, process.stderr);
  const second = await startStandaloneHub(t, { HUB_PASSWORD: undefined, LOG_FORMAT: 'pretty', LOG_LEVEL: 'warn' }, { dataPath: first.dataPath });
  t.ok((await logIn(second, password)).searchParams.get('code'), 'the stored password still works after a restart');
  t.notOk(stderr().includes(password) || second.log().includes(password), 'the second start does not print it');
  t.notMatch(stderr() + second.log(), /generated/);
  t.equal((await readFile(file, 'utf8')).trim(), password, 'nor does it replace it');
});

// Issue 60, item 4: a collector reads both streams; in JSON mode the news is one JSON
// record naming the file, and the password is in no output.
t.test('in JSON log mode, a generated password is one JSON record naming its file, never the password', async (t) => {
  const stdout = written(t, process.stdout);
  const stderr = written(t, process.stderr);
  const hub = await startStandaloneHub(t, { HUB_PASSWORD: undefined, LOG_FORMAT: 'json', LOG_LEVEL: 'warn' });
  const record = await hub.waitForLog('the generated-password record', (line) => /generated the approval password/.test(line.msg));
  const file = join(hub.dataPath, 'hub-password');
  t.equal(record.passwordFile, file, "the record names the password's file");
  t.match(record.msg, /read it once from the file passwordFile names/, 'and says how to read it');
  const password = (await readFile(file, 'utf8')).trim();
  t.ok(password.length >= 20, 'the file holds the password');
  t.notOk(hub.log().includes(password) || stdout().includes(password) || stderr().includes(password), 'the password is in no output');
  t.notMatch(stderr(), /generated/, 'nothing on stderr: no plain-text line among the JSON records');
  for (const line of hub.log().split('\n').filter(Boolean)) JSON.parse(line);
  t.pass('every line of the log is one JSON record');
});

t.test('with HUB_PASSWORD set, nothing is generated', async (t) => {
  const stderr = written(t, process.stderr);
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'warn' });
  t.ok((await logIn(hub, 'correct horse')).searchParams.get('code'));
  await t.rejects(readFile(join(hub.dataPath, 'hub-password')), { code: 'ENOENT' });
  t.notMatch(stderr() + hub.log(), /generated/);
});

t.test('with HUB_PASSWORD_FILE, the password is the mounted secret file’s', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'hub-secret-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const file = join(folder, 'hub_password');
  await writeFile(file, 'from the secret file\n');
  const stderr = written(t, process.stderr);
  const hub = await startStandaloneHub(t, { HUB_PASSWORD: undefined, HUB_PASSWORD_FILE: file, LOG_LEVEL: 'warn' });
  t.ok((await logIn(hub, 'from the secret file')).searchParams.get('code'), "the file's content, without its line end, opens the approval pages");
  await t.rejects(readFile(join(hub.dataPath, 'hub-password')), { code: 'ENOENT' }, 'nothing is generated');
  t.notMatch(stderr() + hub.log(), /generated/);
});
