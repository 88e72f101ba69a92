import t from 'tap';
import { loginDelayMs } from '../../../core/operator/login-throttle.js';
import { startStandaloneHub } from '../../helpers/hub.js';
import { attemptLogin, cookiesOf, form, hiddenFields } from './browserless.js';
import { authorizationUrl, PASSWORD, registerClient } from './flows.js';

/** A standalone hub with a registered client; one login attempt as the person at `address`. */
async function standalone(t: { teardown(fn: () => unknown): void }, env: Record<string, string> = {}) {
  const { url } = await startStandaloneHub(t, env);
  const client = await registerClient(url);
  return (password: string, address?: string) => attemptLogin(authorizationUrl(url, client.client_id, client.redirect_uri), password, address ? { 'x-forwarded-for': address } : {});
}

t.test('failures spread over many addresses do not lock the operator out', async (t) => {
  const attempt = await standalone(t, { TRUSTED_PROXIES: '127.0.0.1' });
  const wrong: Response[] = [];
  for (let batch = 0; batch < 10; batch++) {
    wrong.push(...(await Promise.all(Array.from({ length: 10 }, (_, index) => attempt(`guess ${batch} ${index}`, `203.0.113.${(batch * 10 + index) % 38}`)))));
  }
  t.same(new Set(wrong.map((response) => response.status)), new Set([401]), '100 wrong passwords from 38 addresses: each refused as wrong');
  const right = await attempt(PASSWORD, '198.51.100.7');
  t.equal(right.status, 302, 'the right password from a fresh address still approves');
  t.match(right.headers.get('location'), /[?&]code=/);
});

t.test('one address is blocked after 10 failures, others are not', async (t) => {
  const attempt = await standalone(t, { TRUSTED_PROXIES: '127.0.0.1' });
  for (let index = 0; index < 10; index++) t.equal((await attempt(`guess ${index}`, '203.0.113.5')).status, 401);
  const blocked = await attempt(PASSWORD, '203.0.113.5');
  t.equal(blocked.status, 429, 'that address is refused, even the right password');
  t.ok(Number(blocked.headers.get('retry-after')) > 0, 'with Retry-After');
  t.equal((await attempt(PASSWORD, '203.0.113.6')).status, 302, 'its neighbour is not');
  t.equal((await attempt(PASSWORD, '2001:db8:1:2::5')).status, 302);
  for (let index = 0; index < 10; index++) await attempt(`guess ${index}`, `2001:db8:7:7::${index + 1}`);
  t.equal((await attempt(PASSWORD, '2001:db8:7:7::ff')).status, 429, 'an IPv6 /64 counts as one address');
});

t.test('500 parallel guesses from one address: at most 10 passwords are checked', async (t) => {
  const { url } = await startStandaloneHub(t, { TRUSTED_PROXIES: '127.0.0.1' });
  const client = await registerClient(url);
  const address = { 'x-forwarded-for': '203.0.113.77' };
  // One approval page; its form posted 500 times at once, each with another password.
  const page = await fetch(authorizationUrl(url, client.client_id, client.redirect_uri), { headers: address });
  const fields = hiddenFields(await page.text());
  const post = (password: string, from = address) => {
    const request = form({ ...fields, step: 'approve', password });
    return fetch(`${url}/authorize`, { ...request, headers: { ...request.headers, ...from, cookie: cookiesOf(page) }, redirect: 'manual' });
  };
  // 40 wrong passwords from 40 other addresses first: from 30 on, every check waits (the global slow-down).
  await Promise.all(Array.from({ length: 40 }, (_, index) => post(`warm-up ${index}`, { 'x-forwarded-for': `198.51.100.${index + 1}` })));
  const answers = await Promise.all(Array.from({ length: 500 }, (_, index) => post(index === 499 ? PASSWORD : `guess ${index}`)));
  const checked = answers.filter((response) => response.status !== 429);
  t.ok(checked.length >= 1 && checked.length <= 10, `${checked.length} of 500 parallel guesses were checked`);
  t.ok(
    answers.filter((response) => response.status === 429).every((response) => Number(response.headers.get('retry-after')) >= 1),
    'the others were refused unchecked, with Retry-After',
  );
});

t.test('without TRUSTED_PROXIES, X-Forwarded-For is not believed', async (t) => {
  const attempt = await standalone(t);
  for (let index = 0; index < 10; index++) t.equal((await attempt(`guess ${index}`, `203.0.113.${index}`)).status, 401);
  t.equal((await attempt(PASSWORD, '198.51.100.7')).status, 429, 'the ten failures all counted against the real peer');
});

t.test('the wait before a password check grows with failures in total, within a cap', async (t) => {
  t.equal(loginDelayMs(0), 0);
  t.equal(loginDelayMs(29), 0, 'a few mistakes make nobody wait');
  t.equal(loginDelayMs(30), 100);
  t.equal(loginDelayMs(60), 200, 'doubling every 30 failures');
  t.equal(loginDelayMs(100), Math.round(100 * 2 ** (70 / 30)));
  t.equal(loginDelayMs(10_000), 10_000, 'never more than 10 s');
  const shorter = Array.from({ length: 400 }, (_, failures) => failures).filter((failures) => failures > 0 && loginDelayMs(failures) < loginDelayMs(failures - 1));
  t.same(shorter, [], 'never shorter with more failures');
});
