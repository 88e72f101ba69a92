import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import t from 'tap';
import { hub } from '../../core/kernel.js';
import { runHubAdmin } from '../helpers/admin.js';
import { startStandaloneHub } from '../helpers/hub.js';
import { postOperatorLogin } from '../helpers/operator-login.js';
import { bearerStatus } from '../plugins/oauth-as/bearer.js';

// What the hub does once it listens (the base URL it serves on noted for hub-admin's mints;
// a rotated operator password's end of the sessions) is done when the start resolves, and
// the hub answers no request before it is done: Fastify resolves listen() and takes
// connections before its onListen hooks have run, and never waits for an async one. Each
// check is made at once, with no wait, after each of STARTS starts: the race showed on
// about half of them when the work ran in onListen hooks.

const STARTS = 20;
const config = { mcpServers: {}, plugins: { 'map-tools': false } };
const probe = fileURLToPath(new URL('../fixtures/plugins/probe.js', import.meta.url));

/** The session cookie a login with `password` starts. */
async function logIn(url: string, password: string): Promise<string> {
  const page = await fetch(`${url}/status`);
  const answer = await postOperatorLogin(url, '', page, await page.text(), password);
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('hub_session='));
  if (answer.status !== 303 || !cookie) throw new Error(`the login failed: ${answer.status}`);
  return cookie.split(';')[0] ?? '';
}

/** Whether the cookie's session opens the status page (rather than getting the login form). */
async function opens(url: string, cookie: string): Promise<boolean> {
  const page = await (await fetch(`${url}/status`, { headers: { cookie } })).text();
  return !page.includes('name="password"');
}

t.test('once the start resolves, hub-admin mints for the URL the hub serves, on every start', async (t) => {
  let accepted = 0;
  for (let start = 0; start < STARTS; start += 1) {
    // No BASE_URL: the hub serves where it listens, and hub-admin beside it (PORT unset) reads that from the store.
    const started = await startStandaloneHub(t, { BASE_URL: undefined });
    const minted = await runHubAdmin({ DATA_PATH: started.dataPath, HUB_CONFIG: started.configFile }, 'tokens', 'mint', '--all');
    if (minted.code === 0 && minted.stderr.includes(`for the hub at ${started.url} `) && (await bearerStatus(started.url, minted.stdout.trim())) === 200) accepted += 1;
    else t.comment(`start ${start}: ${minted.stderr.trim()}`);
    await started.close();
  }
  t.equal(accepted, STARTS, 'every token is for where the hub serves, and accepted');
});

t.test("once the start resolves, a rotated password's sessions are ended, on every start", async (t) => {
  const first = await startStandaloneHub(t, { HUB_PASSWORD: 'password 0' }, { config });
  let cookie = await logIn(first.url, 'password 0');
  await first.close();
  let ended = 0;
  for (let start = 1; start <= STARTS; start += 1) {
    const password = `password ${start}`;
    const started = await startStandaloneHub(t, { HUB_PASSWORD: password, LOG_LEVEL: start === 1 ? 'info' : 'silent' }, { dataPath: first.dataPath, configFile: first.configFile });
    if (!(await opens(started.url, cookie))) ended += 1;
    cookie = await logIn(started.url, password);
    if (start === 1) {
      // The log is written asynchronously: what the line says of the start is its place among the records.
      await started.waitForLog('the listening record', (record) => record.msg.startsWith('Server listening at'));
      const messages = started.logs().map((record) => record.msg);
      const at = (pattern: RegExp) => messages.findIndex((message) => pattern.test(message));
      const [bound, rotated, listening] = [at(/^Server bound at /), at(/the operator password changed since the last start/), at(/^Server listening at /)];
      t.ok(bound >= 0 && bound < rotated, "Fastify's line, as the socket is bound, comes first", { messages });
      t.ok(rotated >= 0 && rotated < listening, 'the sessions are ended before the hub says it listens', { messages });
    }
    await started.close();
  }
  t.equal(ended, STARTS, "the first request after each start finds the last start's session ended");
});

t.test('embedded, the hub answers no request before its work at listen is done', async (t) => {
  const dataPath = await mkdtemp(join(tmpdir(), 'started-is-ready-'));
  const embedded = async (password: string) => {
    const app = Fastify();
    await app.register(hub, { config: { ...config, plugins: { ...config.plugins, 'oauth-as': false } }, env: { DATA_PATH: dataPath, HUB_PASSWORD: password }, settings: { dataPath } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    return { app, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  };
  const first = await embedded('password 0');
  let cookie = await logIn(first.url, 'password 0');
  await first.app.close();
  let ended = 0;
  for (let start = 1; start <= STARTS; start += 1) {
    const password = `password ${start}`;
    const started = await embedded(password);
    // The app's listen() resolved; the hub's work at listen may still be running, and the request waits for it.
    if (!(await opens(started.url, cookie))) ended += 1;
    cookie = await logIn(started.url, password);
    await started.app.close();
  }
  t.equal(ended, STARTS, "the first request after each listen finds the last start's session ended");
});

t.test("a plugin's work before serving that fails stops the standalone hub, and the embedded hub answers 503, its probes saying why", async (t) => {
  const failing = { ...config, plugins: { ...config.plugins, [probe]: { failBeforeServing: 'the store is gone' } } };
  await t.rejects(startStandaloneHub(t, {}, { config: failing }), {
    name: 'StartupError',
    code: 'HUB_ERR_STARTUP',
    message: "probe's work once the hub listens failed: the store is gone",
  });

  const dataPath = await mkdtemp(join(tmpdir(), 'started-is-ready-'));
  const app = Fastify();
  t.teardown(() => app.close());
  await app.register(hub, { config: { ...failing, plugins: { ...failing.plugins, 'oauth-as': false } }, env: { DATA_PATH: dataPath }, settings: { dataPath } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const health = await fetch(`${url}/health`);
  t.equal(health.status, 503, 'a route waits for the work, and is refused once it failed');
  t.same(await health.json(), { status: 'the hub did not finish starting; its log says why' });
  const ready = await fetch(`${url}/readyz`);
  t.equal(ready.status, 503, '/readyz answers, not ready');
  t.same(await ready.json(), { status: 'not ready', reasons: ["probe's work once the hub listens failed: the store is gone"] });
  t.equal((await fetch(`${url}/livez`)).status, 200, '/livez answers: the process serves');
});
