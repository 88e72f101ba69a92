import { createServer } from 'node:http';
import t from 'tap';
import { collections } from '../../../plugins/oauth-as/records.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { authorizationUrl, register } from './flows.js';
import { startOAuthHub } from './oauth-hub.js';

const REFUSED = [
  'javascript:alert(document.cookie)',
  'JavaScript://%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'vbscript:msgbox(1)',
  'about:blank',
  'blob:https://app.example/1',
  'ftp://app.example/cb',
  'http://evil.example/cb',
  'http://10.0.0.1/cb',
  'http://127.0.0.1.evil.example/cb',
  'myapp:/cb',
];
const ACCEPTED = ['https://app.example/cb', 'http://127.0.0.1:5555/cb', 'http://[::1]/cb', 'http://localhost:8080/cb', 'com.example.app:/oauth2redirect'];

t.test('dynamic registration accepts https, loopback http and reverse-domain private-use schemes only', async (t) => {
  const { url } = await startOAuthHub(t);
  for (const uri of REFUSED) {
    const { status, body } = await register(url, { redirect_uris: ['https://app.example/cb', uri] });
    t.equal(status, 400, uri);
    t.equal(body.error, 'invalid_redirect_uri', uri);
  }
  for (const uri of ACCEPTED) t.equal((await register(url, { redirect_uris: [uri] })).status, 201, uri);

  const client = await register(url, { redirect_uris: ['https://app.example/cb'] });
  const update = await fetch(`${url}/register/${client.body.client_id}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${client.body.registration_access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: client.body.client_id, redirect_uris: ['javascript:alert(1)'] }),
  });
  t.equal(update.status, 400, 'nor can an update bring one in');
});

t.test('an error is never redirected to a URI that fails the check, even one stored before it existed', async (t) => {
  const { url, hub } = await startOAuthHub(t);
  const { clients } = collections(hub.store);
  for (const [index, uri] of ['javascript:alert(1)', 'data:text/html,x', 'http://evil.example/cb'].entries()) {
    const clientId = `hcd_legacy_${index}`;
    await clients.insertOne({
      _id: clientId,
      source: 'dynamic',
      metadata: { redirect_uris: [uri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] },
      issuedAt: 0,
    });
    // No PKCE: an error the hub would otherwise redirect to the client.
    const response = await fetch(authorizationUrl(url, clientId, uri, '', { code_challenge_method: 'plain' }), { redirect: 'manual' });
    t.equal(response.status, 400, uri);
    t.equal(response.headers.get('location'), null, 'shown, not redirected');
  }
});

t.test('a metadata document naming an unsafe redirect URI is refused', async (t) => {
  let base = '';
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: `${base}${request.url}`, redirect_uris: ['javascript:alert(1)'] }));
  });
  base = `http://127.0.0.1:${await listenOnLoopback(t, server)}`;
  const { url } = await startOAuthHub(t, { plugin: { allowLoopbackMetadataDocuments: true } });
  const response = await fetch(authorizationUrl(url, `${base}/client.json`, 'javascript:alert(1)', '', { code_challenge_method: 'plain' }), { redirect: 'manual' });
  t.equal(response.status, 400);
  t.equal(response.headers.get('location'), null);
  t.match(await response.text(), /redirect/i);
});
