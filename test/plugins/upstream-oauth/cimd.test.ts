import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import t from 'tap';
import { waitFor } from '../../core/children/helpers.js';
import { SCOPE, startUpstreamWorld } from './upstream-world.js';
import { freePort } from '../../helpers/net.js';
import { newDataPath, PASSWORD, startUpstreamHub } from './upstream-hub.js';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A throwaway certificate for 127.0.0.1: oidc-provider takes only https metadata-document URLs. */
function certificate(directory: string): { key: string; cert: string } {
  const key = join(directory, 'tls-key.pem');
  const cert = join(directory, 'tls-cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

/** GET over https trusting exactly `ca`, as the authorization server's fetch of the document. */
function fetchTrusting(ca: string) {
  return (url: string, init: RequestInit): Promise<Response> =>
    new Promise((resolve, reject) => {
      const request = https.get(url, { ca, headers: Object.fromEntries(new Headers(init.headers)) }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers.set(name, value);
          resolve(new Response(Buffer.concat(chunks), { status: response.statusCode ?? 502, headers }));
        });
      });
      request.on('error', reject);
    });
}

for (const clientAuth of ['private_key_jwt', 'none'] as const) {
  t.test(`cimd with ${clientAuth}: the upstream reads the hub's metadata document and the login completes`, async (t) => {
    const port = await freePort();
    const dataPath = await newDataPath();
    const tls = certificate(dataPath);
    const hubUrl = `https://127.0.0.1:${port}`;
    const world = await startUpstreamWorld(t, () => [], `${hubUrl}/upstreams/callback`, { fetch: fetchTrusting(tls.cert) });
    const running = await startUpstreamHub(t, { port, dataPath, tls, servers: { docs: { url: world.mcpUrl, oauth: { mode: 'cimd', clientAuth, scope: SCOPE } } } });
    const child = running.hub.children.get('docs');
    await waitFor('the server to need a login', () => child?.status === 'unauthorized');

    const documentUrl = `${hubUrl}/upstreams/docs/client.json`;
    const document = JSON.parse(await (await fetchTrusting(tls.cert)(documentUrl, {})).text()) as Record<string, unknown>;
    t.equal(document.client_id, documentUrl, 'the document names its own URL as client_id');
    t.same(document.redirect_uris, [`${hubUrl}/upstreams/callback`]);
    t.equal(document.token_endpoint_auth_method, clientAuth);
    if (clientAuth === 'private_key_jwt') t.match(document.jwks, { keys: [{ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' }] }, 'the public half of the upstream key is published');
    else t.notOk('jwks' in document);

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
    t.teardown(() => browser.close());
    const page = await browser.newPage({ ignoreHTTPSErrors: true });
    const requested: URL[] = [];
    page.on('request', (request) => void requested.push(new URL(request.url())));
    await page.goto(`${hubUrl}/upstreams`);
    await page.fill('input[name=password]', PASSWORD);
    await page.click('button[type=submit]');
    await page.click('button:has-text("Log in to docs")');
    t.ok(
      requested.some((url) => url.origin === world.issuer && url.searchParams.get('client_id') === documentUrl),
      'the authorization request uses the document URL as client_id',
    );
    await page.fill('input[name=login]', 'operator');
    await page.fill('input[name=password]', 'anything');
    await page.click('button[type=submit]');
    await page.click('button[type=submit]');
    t.match(await page.textContent('body'), /logged in to docs/);
    await waitFor('the server to come up', () => child?.status === 'up');
    const result = await child?.withClient((client) => client.callTool({ name: 'secret', arguments: {} }));
    t.same(result?.content, [{ type: 'text', text: 'the secret' }], 'calls reach the upstream with the metadata-document client');
    t.equal(world.grants.authorization_code, 1);
  });
}
