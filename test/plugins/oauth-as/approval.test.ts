import t from 'tap';
import { approve, form, hiddenFields, pkce } from './browserless.js';
import { startOAuthHub } from './oauth-hub.js';

async function register(url: string, redirectUris: string[]) {
  const response = await fetch(`${url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: redirectUris, client_name: 'Approval test' }),
  });
  return (await response.json()) as { client_id: string; client_secret: string; registration_access_token: string };
}

function authorizationUrl(url: string, clientId: string, redirectUri: string, challenge = pkce().challenge) {
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'st' });
  return `${url}/authorize?${query}`;
}

t.test('wrong passwords are throttled: 429 after repeated failures, even for the right one', async (t) => {
  const { url } = await startOAuthHub(t);
  const client = await register(url, ['http://127.0.0.1:5555/cb']);
  const page = await fetch(authorizationUrl(url, client.client_id, 'http://127.0.0.1:5555/cb'));
  const html = await page.text();
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const fields = { ...hiddenFields(html), step: 'approve' };
  const attempt = (password: string) => {
    const request = form({ ...fields, password });
    return fetch(`${url}/authorize`, { ...request, headers: { ...request.headers, cookie }, redirect: 'manual' });
  };
  let throttled: Response | undefined;
  let wrong = 0;
  for (; wrong < 50 && !throttled; wrong++) {
    const response = await attempt(`guess ${wrong}`);
    if (response.status === 429) throttled = response;
    else {
      t.equal(response.status, 401);
      t.match(await response.text(), 'Wrong password.');
    }
  }
  t.ok(throttled, `answered 429 after ${wrong - 1} wrong passwords`);
  t.ok(wrong > 3, 'not on the first tries');
  t.ok(Number(throttled?.headers.get('retry-after')) > 0, 'with Retry-After');
  const right = await attempt('correct horse');
  t.equal(right.status, 429, 'the right password is refused too while throttled');
  t.notMatch(right.headers.get('set-cookie') ?? '', /hub_session/, 'and no session is opened');
  t.equal(right.headers.get('location'), null, 'nor a code sent');
});

t.test('native-app loopback redirects may change port; other redirects must match exactly', async (t) => {
  const { url } = await startOAuthHub(t);
  const native = await register(url, ['http://127.0.0.1:5555/cb']);
  const { verifier, challenge } = pkce();
  const otherPort = 'http://127.0.0.1:6123/cb';
  const redirect = await approve(authorizationUrl(url, native.client_id, otherPort, challenge), 'correct horse');
  t.equal(`${redirect.origin}${redirect.pathname}`, otherPort, 'the code goes to the port asked for');
  const exchanged = await fetch(
    `${url}/token`,
    form({
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code') ?? '',
      code_verifier: verifier,
      redirect_uri: otherPort,
      client_id: native.client_id,
      client_secret: native.client_secret,
    }),
  );
  t.equal(exchanged.status, 200, 'and is exchanged with that redirect_uri');

  const refused = async (clientId: string, redirectUri: string) => {
    const response = await fetch(authorizationUrl(url, clientId, redirectUri), { redirect: 'manual' });
    t.equal(response.status, 400, redirectUri);
    t.equal(response.headers.get('location'), null, 'shown, not followed');
  };
  await refused(native.client_id, 'http://127.0.0.1:6123/other');
  await refused(native.client_id, 'http://127.0.0.2:5555/cb');
  const web = await register(url, ['https://app.example:8443/cb']);
  await refused(web.client_id, 'http://app.example:6123/cb');
  await refused(web.client_id, 'https://app.example:9443/cb');
  await refused(web.client_id, 'https://app.example/cb');
  const exact = await fetch(authorizationUrl(url, web.client_id, 'https://app.example:8443/cb'));
  t.equal(exact.status, 200, 'the registered one is accepted');
});

t.test('RFC 7592 DELETE removes the registration and withdraws its tokens', async (t) => {
  const { url } = await startOAuthHub(t);
  const redirectUri = 'http://127.0.0.1:5555/cb';
  const client = await register(url, [redirectUri]);
  const { verifier, challenge } = pkce();
  const redirect = await approve(authorizationUrl(url, client.client_id, redirectUri, challenge), 'correct horse');
  const tokens = (await (
    await fetch(
      `${url}/token`,
      form({
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code') ?? '',
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: client.client_id,
        client_secret: client.client_secret,
      }),
    )
  ).json()) as { access_token: string };
  const probe = () => fetch(`${url}/probe/x`, { headers: { 'x-resource': `${url}/hub`, authorization: `Bearer ${tokens.access_token}` } }).then((response) => response.status);
  t.equal(await probe(), 200);

  const managed = `${url}/register/${encodeURIComponent(client.client_id)}`;
  const remove = (token: string) => fetch(managed, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  t.equal((await remove(`${client.registration_access_token}x`)).status, 401, 'a wrong registration access token is refused');
  t.equal(await probe(), 200, 'and changes nothing');
  t.equal((await remove(client.registration_access_token)).status, 204);
  t.equal(await probe(), 401, "the client's tokens are withdrawn");
  t.equal((await fetch(managed, { headers: { authorization: `Bearer ${client.registration_access_token}` } })).status, 401, 'the registration is gone');
  t.equal((await fetch(authorizationUrl(url, client.client_id, redirectUri))).status, 400, 'the client can no longer ask for authorization');
  t.equal((await remove(client.registration_access_token)).status, 401, 'a second DELETE finds nothing');
});
