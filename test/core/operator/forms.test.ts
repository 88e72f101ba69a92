import t from 'tap';
import { foreignFormReason } from '../../../core/operator/form-origin.js';
import { startTestHub } from '../../helpers/hub.js';

const PASSWORD = 'correct horse battery';

/** A browser without a browser: keeps the cookies the hub sets and sends them back. */
class Visitor {
  readonly jar = new Map<string, string>();

  constructor(private readonly base: string) {}

  async request(path: string, init: { form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const response = await fetch(`${this.base}${path}`, {
      method: init.form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; '), ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }), ...init.headers },
      ...(init.form && { body: new URLSearchParams(init.form).toString() }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      if (index > 0) this.jar.set(pair.slice(0, index), pair.slice(index + 1));
    }
    return response;
  }

  /** The CSRF token of the form `path` shows. */
  async token(path: string): Promise<string> {
    return /name="_csrf" value="([^"]+)"/.exec(await (await this.request(path)).text())?.[1] ?? '';
  }

  async logIn(headers: Record<string, string> = {}): Promise<Response> {
    return this.request('/login', { form: { _csrf: await this.token('/status'), password: PASSWORD, return_to: '/status' }, headers });
  }
}

t.test('a form post from another site is refused, whatever its cookies and token', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  const foreign: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' }, { origin: 'null' }];
  for (const headers of foreign) {
    const visitor = new Visitor(url);
    const refused = await visitor.logIn(headers);
    t.equal(refused.status, 403, `refused: ${JSON.stringify(headers)}`);
    t.match(await refused.text(), /not sent from the hub's own pages/);
    t.notOk(visitor.jar.has('hub_session'), 'and no session');
  }
  const visitor = new Visitor(url);
  const accepted = await visitor.logIn({ origin: url, 'sec-fetch-site': 'same-origin' });
  t.equal(accepted.status, 303, "a post from the hub's own page goes through");
  t.equal(accepted.headers.get('location'), '/status');
});

t.test('the origin rule', async (t) => {
  const own = ['https://hub.example'];
  t.equal(foreignFormReason({}, own), undefined, 'no fetch metadata (not a browser): the token decides');
  t.equal(foreignFormReason({ 'sec-fetch-site': 'same-origin', origin: 'https://hub.example' }, own), undefined);
  t.match(foreignFormReason({ 'sec-fetch-site': 'same-site' }, own), /another site/);
  t.match(foreignFormReason({ 'sec-fetch-site': 'none' }, own), /another site/);
  t.match(foreignFormReason({ origin: 'https://hub.example.evil' }, own), /not from this hub/);
  t.match(foreignFormReason({ origin: 'null' }, own), /opaque origin/);
});

t.test('logout ends the session everywhere; the old cookie opens nothing afterwards', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  const visitor = new Visitor(url);
  t.equal((await visitor.logIn()).status, 303);
  const session = visitor.jar.get('hub_session') ?? '';
  t.match(await (await visitor.request('/console')).text(), '<h1>Hub console</h1>');
  const page = await (await visitor.request('/console')).text();
  const token = /class="logout"[^>]*>.*?name="_csrf" value="([^"]+)"/s.exec(page)?.[1] ?? '';
  t.ok(token, 'every page of a logged-in operator has a Log out button');
  const out = await visitor.request('/logout', { form: { _csrf: token, return_to: '/status' } });
  t.equal(out.status, 303);
  t.match(out.headers.getSetCookie().join('\n'), /hub_session=;.*Expires=Thu, 01 Jan 1970/, 'the cookie is cleared');

  const replayed = await fetch(`${url}/status`, { headers: { cookie: `hub_session=${session}` } });
  t.match(await replayed.text(), '<h1>Log in to the hub</h1>', 'the session is gone from the store: a kept copy of the cookie is refused');
});

t.test('the session lasts OPERATOR_SESSION_MINUTES', async (t) => {
  const { url, hub } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD, OPERATOR_SESSION_MINUTES: '5' } });
  const visitor = new Visitor(url);
  const login = await visitor.logIn();
  // The cookie's Max-Age and the stored expiry come from one lifetime; that the expiry is the
  // login plus that lifetime is shown on an injected clock in sessions.test.ts.
  t.match(
    login.headers.getSetCookie().find((line) => line.startsWith('hub_session=')),
    /Max-Age=300;/,
    'the cookie says 5 minutes',
  );
  const sessions = await hub.store.collection<{ _id: string; expiresAt: Date }>('operator-sessions').find({});
  t.equal(sessions.length, 1, 'and the store keeps the session');
});

t.test('a login returns only to a page of the hub, never to a URL it is handed', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false } }, env: { HUB_PASSWORD: PASSWORD } });
  for (const returnTo of ['https://evil.example/', '//evil.example/status', '/status/../x', '/health']) {
    const visitor = new Visitor(url);
    const login = await visitor.request('/login', { form: { _csrf: await visitor.token('/status'), password: PASSWORD, return_to: returnTo } });
    t.equal(login.status, 200, `${returnTo}: logged in, not redirected`);
    t.equal(login.headers.get('location'), null);
    t.match(await login.text(), `<a href="/status">`, "the page links to the hub's pages instead");
  }
});

// Issue 60, item 10: a form posted with misnamed fields is told which field is missing,
// not refused with a bare 403.
t.test('POST /authorize with misnamed fields names the missing field', async (t) => {
  const { url } = await startTestHub(t, { config: { plugins: { 'map-tools': false, 'oauth-as': true } }, env: { HUB_PASSWORD: PASSWORD } });
  const visitor = new Visitor(url);
  const token = await visitor.token('/status');
  const noToken = await visitor.request('/authorize', { form: { csrf: token, req: 'sealed', action: 'approve' } });
  t.equal(noToken.status, 400, 'not understood, rather than forbidden');
  const page = await noToken.text();
  t.match(page, /no &quot;_csrf&quot; field|no "_csrf" field/, 'naming the missing field');
  t.match(page, /csrf.*req.*action/s, 'and the fields sent');
  const noStep = await visitor.request('/authorize', { form: { _csrf: token, request: 'sealed', action: 'approve' } });
  t.equal(noStep.status, 400);
  t.match(await noStep.text(), /step/, 'a field of the form itself is named too');
});
