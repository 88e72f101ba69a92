import { request } from 'node:http';
import t from 'tap';
import { CHECKS_PER_ADDRESS } from '../../core/operator/login-throttle.js';
import { AllowedHosts } from '../../core/net/allowed-hosts.js';
import { startTestHub } from '../helpers/hub.js';

const PASSWORD = 'correct horse battery';

interface Answer {
  status: number;
  body: string;
  cookies: string[];
}

/** One request with a `Host` of the test's choosing (fetch does not let one set it), as a rebinding page's browser sends it. */
function send(url: string, path: string, host: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${url}${path}`, { method: init.method ?? 'GET', headers: { host, ...init.headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString(), cookies: response.headers['set-cookie'] ?? [] }));
    });
    outgoing.on('error', reject);
    outgoing.end(init.body);
  });
}

/** A rebinding page's password guess: the login form read and posted under the foreign name, as same-origin to the browser. */
async function guess(url: string, host: string, password: string): Promise<number> {
  const page = await send(url, '/status', host);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const cookie = page.cookies.map((line) => line.split(';')[0]).join('; ');
  const posted = await send(url, '/login', host, {
    method: 'POST',
    headers: { cookie, origin: `http://${host}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, password, return_to: '/status' }).toString(),
  });
  return posted.status;
}

t.test('every route but the probes refuses a Host that is neither the base URL nor loopback', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  const port = new URL(url).port;
  const foreign = `rebound.example:${port}`;
  for (const path of ['/health', '/metrics', '/status', '/tool-approvals']) {
    const refused = await send(url, path, foreign);
    t.equal(refused.status, 403, `${path} under a foreign Host`);
    t.match(JSON.parse(refused.body), { error: 'forbidden_host', error_description: /set BASE_URL/ }, `${path}: says why and what to change`);
    for (const own of [`127.0.0.1:${port}`, `localhost:${port}`]) t.not((await send(url, path, own)).status, 403, `${path} under ${own}`);
  }
  const posted = await send(url, '/login', foreign, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${foreign}` }, body: 'password=x&_csrf=y' });
  t.equal(posted.status, 403, 'a login post under a foreign Host is refused before anything is checked');
  for (const probe of ['/livez', '/readyz']) t.equal((await send(url, probe, `10.1.2.3:${port}`)).status, 200, `${probe} answers whatever the Host (Kubernetes sends the pod's address)`);
  const mcp = await send(url, '/hub', foreign, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  });
  t.equal(mcp.status, 403, 'the MCP endpoints keep their own check');
  t.match(JSON.parse(mcp.body), { jsonrpc: '2.0', error: { message: 'Forbidden host' } }, 'answered in JSON-RPC');
});

t.test("a page of another site rebound to loopback cannot spend the local operator's password checks", async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  const port = new URL(url).port;
  const statuses = new Set<number>();
  for (let attempt = 0; attempt <= CHECKS_PER_ADDRESS; attempt += 1) statuses.add(await guess(url, `rebound.example:${port}`, `wrong ${attempt}`));
  t.same([...statuses], [403], 'every guess refused before its password is checked');
  t.equal(await guess(url, `127.0.0.1:${port}`, PASSWORD), 303, 'the operator on loopback still logs in');
});

t.test('the accepted names are remembered per base URL, and only accepted ones', (t) => {
  const settings = { baseUrl: 'https://a.example', host: '127.0.0.1' };
  const allowed = new AllowedHosts(settings);
  t.ok(allowed.host('a.example'), "the base URL's name");
  t.ok(allowed.host('a.example'), 'again, as remembered');
  t.notOk(allowed.host('evil.example'), 'another name');
  t.notOk(allowed.host('evil.example'), 'still refused when asked again');
  t.notOk(allowed.host(undefined), 'no Host at all');
  settings.baseUrl = 'https://b.example';
  t.notOk(allowed.host('a.example'), 'a name accepted under the old base URL is refused once it changes');
  t.ok(allowed.host('b.example'));
  const ports = Array.from({ length: 100 }, (_, at) => `localhost:${at + 1}`);
  t.ok(
    ports.every((name) => allowed.host(name)),
    'more accepted names than are remembered are all still accepted',
  );
  t.notOk(allowed.host('evil.example:1'), 'and a refused one still refused');
  t.end();
});
