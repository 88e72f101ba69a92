import t from 'tap';
import { csrfOf, Operator, startUpstreamHub } from './upstream-hub.js';

// The operator's forms and the OAuth callback declare their schemas; what they do not admit
// is answered with a page a person can act on, never Fastify's JSON error.
t.test('forms and the callback refuse what their schemas do not admit, with pages', async (t) => {
  const { url } = await startUpstreamHub(t, { servers: { remote: { url: 'http://127.0.0.1:9/mcp', oauth: { mode: 'dcr' } } } });
  const operator = new Operator(url);
  const csrf = csrfOf(await operator.page());

  const login = await operator.request('/login', { form: { _csrf: csrf, password: 'correct horse', return_to: '/upstreams' } });
  t.equal(login.status, 303, 'the well-formed login goes through');
  const token = csrfOf(await operator.page());
  const duplicated = await operator.request('/upstreams/remote/login', { body: `_csrf=${token}&_csrf=${token}` });
  t.equal(duplicated.status, 403, 'a form field sent twice is refused');
  t.match(duplicated.headers.get('content-type'), /text\/html/, 'with a page');
  const passwordTwice = await operator.request('/login', { body: `_csrf=${csrfOf(await operator.page())}&password=a&password=b` });
  t.equal(passwordTwice.status, 400, 'so is a login form with two passwords');
  t.match(passwordTwice.headers.get('content-type'), /text\/html/, 'with a page');

  const unknownAction = await operator.request('/upstreams/remote/reboot', { form: { _csrf: csrfOf(await operator.page()) } });
  t.equal(unknownAction.status, 404, 'an action that does not exist is not found');

  const callback = await fetch(`${url}/upstreams/callback?state=a&state=b&code=c`);
  t.equal(callback.status, 403, 'a callback with its state twice is refused');
  t.match(callback.headers.get('content-type'), /text\/html/);
  t.equal((await fetch(`${url}/upstreams/callback?code=c`)).status, 403, 'and one without a state');
  t.equal((await fetch(`${url}/upstreams/callback?state=${'s'.repeat(600)}`)).status, 403, 'and one whose state is longer than any the hub issues');
});
