import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { starts, tempDir, waitFor } from '../../core/children/helpers.js';
import { errorOf, everythingEntry, handWritten, listServers, makeUnwritable, operatorSession, PASSWORD, startConsoleHub, writtenServers } from './helpers.js';

const HOSTILE = fileURLToPath(new URL('../../fixtures/children/hostile-markup.js', import.meta.url));

/*
 * Issue 52, the console's servers API (/console/api/servers), against a real hub reading
 * a real file: a save changes only the entry saved (the rest of a hand-written file byte
 * for byte), a stale version is a conflict with the difference, an invalid entry gets the
 * checker's words and nothing is written, a read-only file says why; and the API takes the
 * operator session only, with the page's CSRF token, from the hub's own origin and Host.
 *
 * Road x channel: the API is its own road (the operator's); the channels a child's words
 * take here are the test's tool list and its start error with stderr (escaping is the
 * browser test's, where markup could run).
 */

t.test('a save changes only its entry: a hand-written file keeps its layout byte for byte', async (t) => {
  const text = handWritten();
  const { url, file, hub, logs } = await startConsoleHub(t, text);
  const session = await operatorSession(url);
  const list = await listServers(url, session.cookie);
  t.same(
    list.servers.map((server: { name: string }) => server.name),
    ['alpha', 'zeta'],
    'the file’s servers are listed',
  );
  t.equal(list.readOnly, null, 'the file is writable');

  const everything = { ...everythingEntry(), env: { TOKEN: '${SECRET_TOKEN}' } };
  const added = await fetch(`${url}/console/api/servers/everything`, { method: 'PUT', headers: session.headers(), body: JSON.stringify({ entry: everything, version: list.version }) });
  t.equal(added.status, 200, await added.clone().text());
  const after = await readFile(file, 'utf8');
  t.ok(after.startsWith(text.slice(0, text.lastIndexOf('\t\t}\n'))), 'every byte before the new entry is as it was');
  t.match(after, /\t\t"everything": \{\n\t\t\t"command": /, 'the new entry is indented with the file’s tabs');
  t.same(writtenServers(after).everything, everything, 'the entry is written as sent, the ${VAR} reference kept');
  await waitFor('the new server to be configured', () => hub.children.get('everything') !== undefined);
  const log = logs
    .map((line) => JSON.parse(line) as { msg: string; server?: string; keys?: string[]; level: number })
    .find((record) => record.server === 'everything' && record.msg.startsWith('console:'));
  t.same(log?.keys, ['args', 'command', 'env'], 'the change is logged with the keys changed');
  t.equal(log?.level, 30, 'at info');
  t.notOk(
    logs.some((line) => line.includes('SECRET_TOKEN') || line.includes('server-everything/dist')),
    'and no value is logged',
  );

  // Edit zeta (its key order kept, its args changed); alpha and the rest stay byte for byte.
  const second = await listServers(url, session.cookie);
  const edited = await fetch(`${url}/console/api/servers/zeta`, {
    method: 'PUT',
    headers: session.headers(),
    body: JSON.stringify({ entry: { args: ['c'], command: '/bin/true' }, version: second.version }),
  });
  t.equal(edited.status, 200);
  const third = await readFile(file, 'utf8');
  t.equal(third.replace(/"zeta": {3}\{[^}]*\}/, 'ZETA'), after.replace(/"zeta": {3}\{[^}]*\}/, 'ZETA'), 'only zeta’s text changed');
  t.match(third, /"zeta": {3}\{\s*"command": "\/bin\/true",\s*"args": \[\s*"c"\s*\]\s*\}/, 'in its own key order');

  const fourth = await listServers(url, session.cookie);
  const removed = await fetch(`${url}/console/api/servers/everything`, { method: 'DELETE', headers: session.headers(), body: JSON.stringify({ version: fourth.version }) });
  t.equal(removed.status, 200);
  t.notOk('everything' in writtenServers(await readFile(file, 'utf8')), 'removed from the file');
  await waitFor('the server to be gone', () => hub.children.get('everything') === undefined);
});

t.test('a stale version is a conflict with the difference; an invalid entry gets the checker’s words; nothing is written', async (t) => {
  const { url, file } = await startConsoleHub(t, handWritten());
  const session = await operatorSession(url);
  const list = await listServers(url, session.cookie);
  const byHand = (await readFile(file, 'utf8')).replace('"--x"', '"--y"');
  await writeFile(file, byHand);
  const stale = await fetch(`${url}/console/api/servers/beta`, { method: 'PUT', headers: session.headers(), body: JSON.stringify({ entry: { command: '/bin/true' }, version: list.version }) });
  t.equal(stale.status, 409);
  const conflict = await errorOf(stale);
  t.equal(conflict.code, 'HUB_ERR_CONSOLE_CONFLICT');
  t.match(conflict.diff, /-\t\t\t"args": \["--x"\],\n\+\t\t\t"args": \["--y"\],/, 'the difference is shown');
  t.equal(await readFile(file, 'utf8'), byHand, 'nothing was written');

  const invalid = await fetch(`${url}/console/api/servers/beta`, {
    method: 'PUT',
    headers: session.headers(),
    body: JSON.stringify({ entry: { command: '/bin/true', args: 'not a list' }, version: conflict.version }),
  });
  t.equal(invalid.status, 422);
  const refused = await errorOf(invalid);
  t.equal(refused.code, 'HUB_ERR_CONSOLE_ENTRY_INVALID');
  t.equal(refused.key, 'args', 'the field is named');
  t.match(refused.message, /server "beta": key "args": expected/, 'in the words hub check uses');
  const badName = await fetch(`${url}/console/api/servers/${encodeURIComponent('bad name')}`, {
    method: 'PUT',
    headers: session.headers(),
    body: JSON.stringify({ entry: { command: '/bin/true' }, version: conflict.version }),
  });
  t.equal(badName.status, 422);
  t.match((await errorOf(badName)).message, /the name must be 1 to 64 letters/);
  const reserved = await fetch(`${url}/console/api/servers/console`, {
    method: 'PUT',
    headers: session.headers(),
    body: JSON.stringify({ entry: { command: '/bin/true' }, version: conflict.version }),
  });
  t.match((await errorOf(reserved)).message, /reserved for the hub's own paths/, 'the console’s own path is reserved');
  t.equal(await readFile(file, 'utf8'), byHand, 'still nothing was written');
});

t.test('an entry with three wrong fields gets all three errors at once, each in hub check’s words; nothing is written', async (t) => {
  const { url, file } = await startConsoleHub(t, handWritten());
  const session = await operatorSession(url);
  const list = await listServers(url, session.cookie);
  const before = await readFile(file, 'utf8');
  const entry = { command: '/bin/true', args: 'not a list', timeout: 'soon', keepAlive: 'yes' };
  const expected = [
    { key: 'args', message: /server "beta": key "args": expected a value of type array$/ },
    { key: 'timeout', message: /server "beta": key "timeout": expected a value of type integer$/ },
    { key: 'keepAlive', message: /server "beta": key "keepAlive": expected a value of type boolean$/ },
  ];
  const put = await fetch(`${url}/console/api/servers/beta`, { method: 'PUT', headers: session.headers(), body: JSON.stringify({ entry, version: list.version }) });
  t.equal(put.status, 422);
  const refused = await errorOf(put);
  t.equal(refused.code, 'HUB_ERR_CONSOLE_ENTRY_INVALID');
  const byKey = <E extends { key: string | null }>(errors: E[] | undefined) => [...(errors ?? [])].sort((a, b) => String(a.key).localeCompare(String(b.key)));
  t.equal(refused.errors?.length, 3, 'one error per wrong field');
  t.match(byKey(refused.errors), byKey(expected), 'each field named, in the words hub check uses');
  t.same({ key: refused.key, message: refused.message }, refused.errors?.[0], 'the single error of before is the first of the list');
  t.equal(await readFile(file, 'utf8'), before, 'nothing was written');

  const test = await fetch(`${url}/console/api/servers/beta/test`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ entry }) });
  t.equal(test.status, 422, 'the test refuses it the same way, before starting anything');
  const tested = await errorOf(test);
  t.match(byKey(tested.errors), byKey(expected));
});

/** A config with secrets written literally (a stdio `env` value, an http `Authorization` header) beside `${VAR}` references and a `_FILE` path. */
function withLiteralSecrets(apiKey: string, bearer: string): string {
  return handWritten(`
\t\t"keyed": { "command": "/bin/true", "env": { "API_KEY": "${apiKey}", "REF": "\${REF_TOKEN}", "TOKEN_FILE": "/run/secrets/token" } },
\t\t"remote": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer ${bearer}", "X-Trace": "\${TRACE}" } },`);
}

t.test('a secret written literally in mcp.json never leaves the hub; a save keeps it byte for byte', async (t) => {
  const apiKey = `sk-${randomBytes(12).toString('hex')}`;
  const bearer = randomBytes(12).toString('hex');
  const text = withLiteralSecrets(apiKey, bearer);
  const { url, file, logs } = await startConsoleHub(t, text);
  const session = await operatorSession(url);
  const bodies: string[] = [];
  const read = async (response: Response): Promise<string> => {
    const body = await response.text();
    bodies.push(body);
    return body;
  };
  const listed = async () => JSON.parse(await read(await fetch(`${url}/console/api/servers`, { headers: { cookie: session.cookie } }))) as Awaited<ReturnType<typeof listServers>>;

  const list = await listed();
  const keyed = list.servers.find((server) => server.name === 'keyed');
  const remote = list.servers.find((server) => server.name === 'remote');
  t.same(
    keyed?.entry?.env,
    { API_KEY: '[secret kept]', REF: '${REF_TOKEN}', TOKEN_FILE: '/run/secrets/token' },
    'the literal env value is the marker; the ${VAR} reference and the _FILE path are shown',
  );
  t.same(remote?.entry?.headers, { Authorization: '[secret kept]', 'X-Trace': '${TRACE}' }, 'so is the literal Authorization header');
  const note = 'written literally in mcp.json: move it to ${VAR} or a _FILE path';
  t.same(keyed?.secrets, [{ key: 'env.API_KEY', note }], 'with a note naming the field');
  t.same(remote?.secrets, [{ key: 'headers.Authorization', note }]);
  t.same(list.servers.find((server) => server.name === 'alpha')?.secrets, [], 'an entry without one has none');

  // An unrelated field changed, the marker sent back: the secret stays byte for byte.
  const edited: Record<string, unknown> = { ...keyed?.entry, args: ['--changed'] };
  const saved = await fetch(`${url}/console/api/servers/keyed`, { method: 'PUT', headers: session.headers(), body: JSON.stringify({ entry: edited, version: list.version }) });
  t.equal(saved.status, 200, await read(saved));
  const after = await readFile(file, 'utf8');
  t.ok(after.includes(`"env": { "API_KEY": "${apiKey}", "REF": "\${REF_TOKEN}", "TOKEN_FILE": "/run/secrets/token" }`), 'the env text is as it was');
  t.same(writtenServers(after).keyed, { command: '/bin/true', env: { API_KEY: apiKey, REF: '${REF_TOKEN}', TOKEN_FILE: '/run/secrets/token' }, args: ['--changed'] }, 'only args changed');
  t.ok(after.includes(`"Authorization": "Bearer ${bearer}"`), 'the other entry’s secret too');
  const log = logs.map((line) => JSON.parse(line) as { server?: string; keys?: string[] }).find((record) => record.server === 'keyed');
  t.same(log?.keys, ['args'], 'the log names only the key changed');

  // A stale save: the difference shown hides the secrets of the file.
  await writeFile(file, after.replace('http://127.0.0.1:9/mcp', 'http://127.0.0.1:10/mcp'));
  const stale = await fetch(`${url}/console/api/servers/keyed`, { method: 'PUT', headers: session.headers(), body: JSON.stringify({ entry: edited, version: (await listed()).version }) });
  const fresh = await listed();
  await writeFile(file, after);
  const conflicted = await fetch(`${url}/console/api/servers/remote`, {
    method: 'PUT',
    headers: session.headers(),
    body: JSON.stringify({ entry: fresh.servers.find((server) => server.name === 'remote')?.entry, version: fresh.version }),
  });
  t.equal(stale.status, 200, await read(stale));
  t.equal(conflicted.status, 409);
  const conflict = JSON.parse(await read(conflicted)) as { error: { diff: string } };
  t.match(conflict.error.diff, /-.*127\.0\.0\.1:10\/mcp.*\n\+.*127\.0\.0\.1:9\/mcp/, 'the difference is shown');
  t.match(conflict.error.diff, /"Authorization": "\[secret kept\]"/, 'with the marker where the secret is');

  // A copy has no secret of its own to keep: refused at the field, nothing written.
  const copy = await fetch(`${url}/console/api/servers/keyed-copy`, {
    method: 'PUT',
    headers: session.headers(),
    body: JSON.stringify({ entry: edited, version: (await listed()).version, new: true }),
  });
  t.equal(copy.status, 422);
  const refused = JSON.parse(await read(copy)) as { error: { key: string; message: string } };
  t.equal(refused.error.key, 'env.API_KEY');
  t.match(refused.error.message, /\$\{VAR\} reference or _FILE path/);
  t.equal(await readFile(file, 'utf8'), after, 'nothing was written');

  // A new value replaces the secret.
  const replaced = await fetch(`${url}/console/api/servers/keyed`, {
    method: 'PUT',
    headers: session.headers(),
    body: JSON.stringify({ entry: { ...edited, env: { ...(edited.env as object), API_KEY: '${API_KEY}' } }, version: (await listed()).version }),
  });
  t.equal(replaced.status, 200, await read(replaced));
  t.same(writtenServers(await readFile(file, 'utf8')).keyed?.env?.API_KEY, '${API_KEY}', 'the reference is written');
  t.notOk(await readFile(file, 'utf8').then((now) => now.includes(apiKey)), 'and the literal value is gone');

  for (const body of bodies) {
    t.notOk(body.includes(apiKey) || body.includes(bearer), 'no console API answer holds a literal secret');
  }
  t.notOk(
    logs.some((line) => line.includes(apiKey) || line.includes(bearer)),
    'nor does the log',
  );
});

t.test('a config the hub cannot write makes the API read-only, saying why and giving the JSON to paste', async (t) => {
  const { url, file, folder } = await startConsoleHub(t, handWritten());
  t.teardown(await makeUnwritable(file, folder));
  const session = await operatorSession(url);
  const list = await listServers(url, session.cookie);
  t.match(list.readOnly, /cannot write/, 'the list says it is read-only, and why');
  const put = await fetch(`${url}/console/api/servers/beta`, { method: 'PUT', headers: session.headers(), body: JSON.stringify({ entry: { command: '/bin/true' }, version: list.version }) });
  t.equal(put.status, 409);
  const error = await errorOf(put);
  t.equal(error.code, 'HUB_ERR_CONSOLE_READ_ONLY');
  t.same(JSON.parse(error.paste ?? ''), { beta: { command: '/bin/true' } }, 'with the JSON to paste');
  t.equal(await readFile(file, 'utf8'), handWritten(), 'and nothing was written');
});

t.test('the test start runs the entry apart from the hub: tools and prompts, or the error with its stderr', async (t) => {
  const { url, hub } = await startConsoleHub(t, handWritten());
  const session = await operatorSession(url);
  const tested = await fetch(`${url}/console/api/servers/everything/test`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ entry: everythingEntry() }) });
  t.equal(tested.status, 200);
  const trial = (await tested.json()) as { ok: boolean; tools: { name: string }[]; prompts: unknown[] };
  t.equal(trial.ok, true);
  t.ok(
    trial.tools.some((tool: { name: string }) => tool.name === 'echo'),
    'its tools are listed',
  );
  t.ok(trial.prompts.length > 0, 'and its prompts');
  t.equal(hub.children.get('everything'), undefined, 'and it was never registered with the hub');

  const failing = await fetch(`${url}/console/api/servers/broken/test`, {
    method: 'POST',
    headers: session.headers(),
    body: JSON.stringify({ entry: { command: process.execPath, args: ['-e', 'console.error("Error: the database is not there"); process.exit(3)'] } }),
  });
  const failed = (await failing.json()) as { ok: boolean; error: string; stderr: string[] };
  t.equal(failed.ok, false);
  t.match(failed.error, /exit|ended|closed/i, 'the start error');
  t.ok(
    failed.stderr.some((line: string) => line.includes('the database is not there')),
    'with the tail of its stderr',
  );
  const invalid = await fetch(`${url}/console/api/servers/x/test`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ entry: { command: 7 } }) });
  t.equal(invalid.status, 422, 'an invalid entry is not started');
});

t.test('the API takes the operator session only, with the CSRF token, from the hub’s own origin and Host', async (t) => {
  const { url, file } = await startConsoleHub(t, handWritten());
  const before = await readFile(file, 'utf8');
  const anonymous = await fetch(`${url}/console/api/servers`);
  t.equal(anonymous.status, 401, 'no session: 401');
  t.equal((await errorOf(anonymous)).code, 'HUB_ERR_OPERATOR_SESSION_REQUIRED');
  const session = await operatorSession(url);
  const list = await listServers(url, session.cookie);
  const body = JSON.stringify({ entry: { command: '/bin/true' }, version: list.version });

  const bearer = await fetch(`${url}/console/api/servers`, { headers: { authorization: 'Bearer anything' } });
  t.equal(bearer.status, 401, 'a bearer token is refused');
  const bearerAndCookie = await fetch(`${url}/console/api/servers/beta`, { method: 'PUT', headers: session.headers({ authorization: 'Bearer anything' }), body });
  t.equal(bearerAndCookie.status, 401, 'even beside a session');

  const noToken = await fetch(`${url}/console/api/servers/beta`, { method: 'PUT', headers: { ...session.headers(), 'x-csrf-token': '' }, body });
  t.equal(noToken.status, 403);
  t.equal((await errorOf(noToken)).code, 'HUB_ERR_OPERATOR_CSRF_INVALID', 'without the CSRF token: refused, as JSON');
  const wrongToken = await fetch(`${url}/console/api/servers/beta`, { method: 'PUT', headers: session.headers({ 'x-csrf-token': 'made-up' }), body });
  t.equal(wrongToken.status, 403, 'with a made-up token: refused');

  const foreign = await fetch(`${url}/console/api/servers/beta`, { method: 'PUT', headers: session.headers({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }), body });
  t.equal(foreign.status, 403);
  t.equal((await errorOf(foreign)).code, 'HUB_ERR_OPERATOR_FOREIGN_REQUEST', 'from another site: refused');

  const { request } = await import('node:http');
  const status = await new Promise<number>((resolve, reject) => {
    const sent = request(`${url}/console/api/servers`, { headers: { cookie: session.cookie, host: 'evil.example' } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    sent.on('error', reject);
    sent.end();
  });
  t.equal(status, 403, 'a foreign Host is refused');
  t.equal(await readFile(file, 'utf8'), before, 'and nothing was written');

  const page = await fetch(`${url}/console`, { headers: { cookie: session.cookie } });
  const csp = page.headers.get('content-security-policy') ?? '';
  t.match(csp, /script-src 'self'/);
  t.notMatch(csp, /unsafe-inline|unsafe-eval/, 'the page runs under a strict CSP');
  t.equal(page.headers.get('x-frame-options'), 'DENY');
});

// Issue 52, security: session fixation. A session cookie set before the login (by an
// attacker on a shared machine, or a sibling subdomain) never becomes a logged-in session.
t.test('a login never adopts the session cookie it is sent: a planted one opens nothing', async (t) => {
  const { url } = await startConsoleHub(t, handWritten());
  const planted = randomBytes(32).toString('base64url');
  const first = await fetch(`${url}/console`, { headers: { cookie: `hub_session=${planted}` } });
  const formToken = /name="_csrf" value="([^"]+)"/.exec(await first.text())?.[1] ?? '';
  const preLogin = first.headers
    .getSetCookie()
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => !pair.startsWith('hub_session='));
  const login = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [...preLogin, `hub_session=${planted}`].join('; '), origin: url, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ _csrf: formToken, password: PASSWORD, return_to: '/console' }).toString(),
    redirect: 'manual',
  });
  t.equal(login.status, 303, 'the login succeeds');
  const issued = login.headers
    .getSetCookie()
    .map((line) => /^hub_session=([^;]*)/.exec(line)?.[1])
    .find((value) => value !== undefined);
  t.ok(issued, 'the login sets a session cookie of its own');
  t.not(issued, planted, 'not the planted one');
  const withPlanted = await fetch(`${url}/console/api/servers`, { headers: { cookie: `hub_session=${planted}` } });
  t.equal(withPlanted.status, 401, 'the planted cookie opens nothing after the login');
  const withIssued = await fetch(`${url}/console/api/servers`, { headers: { cookie: `hub_session=${issued ?? ''}` } });
  t.equal(withIssued.status, 200, 'the issued one opens the API');

  // A second login from a browser already logged in starts another session too.
  const again = await operatorSession(url);
  t.notMatch(again.cookie, new RegExp(`hub_session=${issued ?? 'none'}(;|$)`), 'each login its own session');
});

// Issue 52, item 5: the overview's figures of the hub as a whole.
t.test('the overview: version, revisions, plugins on, uptime, calls and error rate of the last minute, memory', async (t) => {
  const text = JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { everything: { ...everythingEntry(), keepAlive: true } } });
  const { url, hub } = await startConsoleHub(t, text);
  const anonymous = await fetch(`${url}/console/api/overview`);
  t.equal(anonymous.status, 401, 'the operator session only');
  const session = await operatorSession(url);
  const overview = async () => {
    const response = await fetch(`${url}/console/api/overview`, { headers: { cookie: session.cookie } });
    t.equal(response.headers.get('cache-control'), 'no-store');
    return (await response.json()) as {
      version: string;
      startedAt: string;
      uptimeSeconds: number;
      revisions: { revision: string; callers: boolean; servers: boolean }[];
      plugins: string[];
      lastMinute: { calls: number; failed: number; errorRate: number | null };
      memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number };
    };
  };
  const before = await overview();
  t.equal(before.version, hub.version);
  t.same(before.lastMinute, { calls: 0, failed: 0, errorRate: null }, 'no call yet');
  t.same(
    before.revisions.map(({ revision }) => revision).sort(),
    hub.revisions
      .values()
      .map(({ revision }) => revision)
      .sort(),
    'the revisions the hub speaks',
  );
  t.ok(
    before.revisions.every(({ callers, servers }) => callers && servers),
    'each to callers and servers, by default',
  );
  t.ok(before.plugins.includes('console') && before.plugins.includes('meta-tools'), 'the plugins on');
  t.notOk(before.plugins.includes('oauth-as') || before.plugins.includes('map-tools'), 'not the ones the config turns off');
  t.ok(Number.isInteger(before.uptimeSeconds) && before.uptimeSeconds >= 0 && !Number.isNaN(Date.parse(before.startedAt)), 'when it started, and the whole seconds since');
  t.ok(before.memory.rssBytes > before.memory.heapUsedBytes && before.memory.heapUsedBytes > 0, 'its memory');

  const play = (args: Record<string, unknown>) =>
    fetch(`${url}/console/api/servers/everything/tools/echo/call`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ arguments: args }) });
  t.equal((await play({ message: 'one' })).status, 200);
  t.equal((await play({ message: 'two' })).status, 200);
  t.equal((await play({})).status, 200, 'echo without its message: a tool error, answered');
  const after = await overview();
  t.same(after.lastMinute, { calls: 3, failed: 1, errorRate: 1 / 3 }, 'three calls, one failed');
  t.equal(after.startedAt, before.startedAt, 'the start stays put');
  t.ok(after.uptimeSeconds >= before.uptimeSeconds, 'the uptime never goes back');
});

t.test('a server’s tools come from what the hub knows: a sleeping server’s from its snapshot, and nothing is woken', async (t) => {
  const folder = await tempDir(t);
  const startsFile = join(folder, 'starts');
  const entry = { command: process.execPath, args: [HOSTILE], env: { FIXTURE_STARTS: startsFile } };
  const { url, hub } = await startConsoleHub(t, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { hostile: entry } }, null, 2));
  const session = await operatorSession(url);
  const toolsOf = async () =>
    (await (await fetch(`${url}/console/api/servers/hostile/tools`, { headers: { cookie: session.cookie } })).json()) as {
      toolsKnown: boolean;
      status: string;
      tools: { name: string; description: string }[];
    };
  const before = await toolsOf();
  t.equal(before.toolsKnown, false, 'never started: its tools are not known yet');
  t.equal(starts(startsFile).length, 0, 'and asking started nothing');

  const child = hub.children.get('hostile');
  await child?.ensureUp();
  await child?.sleep();
  const asleep = await toolsOf();
  t.equal(asleep.status, 'sleeping');
  t.equal(asleep.tools[0]?.name, 'echo<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>', 'the tools as the server listed them');
  t.equal(starts(startsFile).length, 1, 'and the sleeping server was not woken to list them');

  // The playground's call goes through the pipeline (the server is woken for it) and answers with the result and the outcome.
  const toolName = asleep.tools[0]?.name ?? '';
  const called = await fetch(`${url}/console/api/servers/hostile/tools/${encodeURIComponent(toolName)}/call`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ arguments: {} }) });
  t.equal(called.status, 200);
  const answer = (await called.json()) as { result: { content: { text: string }[] }; outcome: string; durationMs: number };
  t.match(answer.result.content[0]?.text, /^<img/, 'the result as the tool returned it');
  t.equal(answer.outcome, 'ok');
  t.equal(starts(startsFile).length, 2, 'the call woke the server');
  const noTool = await fetch(`${url}/console/api/servers/hostile/tools/nothing/call`, { method: 'POST', headers: session.headers(), body: JSON.stringify({ arguments: {} }) });
  t.equal(noTool.status, 404);
  t.equal((await errorOf(noTool)).code, 'HUB_ERR_CONSOLE_TOOL_NOT_FOUND');
  const forged = await fetch(`${url}/console/api/servers/hostile/tools/${encodeURIComponent(toolName)}/call`, {
    method: 'POST',
    headers: session.headers({ 'x-csrf-token': 'made-up' }),
    body: JSON.stringify({ arguments: {} }),
  });
  t.equal(forged.status, 403, 'a call without the page’s CSRF token is refused');
  t.equal(starts(startsFile).length, 2, 'and reached nothing');

  const unknown = await fetch(`${url}/console/api/servers/nothing/tools`, { headers: { cookie: session.cookie } });
  t.equal(unknown.status, 404);
  t.equal((await errorOf(unknown)).code, 'HUB_ERR_CONSOLE_SERVER_NOT_FOUND');
});
