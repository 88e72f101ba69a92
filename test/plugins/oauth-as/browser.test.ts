import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { chromium, type Browser } from 'playwright-core';
import t, { type Test } from 'tap';
import { REVISIONS, type Revision } from '../../helpers/clients.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { MemoryOAuthProvider } from '../../helpers/oauth-provider.js';
import { startHubProcess } from './hub-process.js';

// End to end: a v2 SDK client runs its OAuth flow against a hub process, and Debian's
// Chromium, driven by playwright-core, logs in and consents on the hub's own pages.

/** Debian's Chromium (.ci/run installs it). */
const CHROMIUM = '/usr/bin/chromium';

interface Callback {
  url: string;
  next(): Promise<URL>;
}

/** The redirect target of the client: resolves each callback URL the browser lands on. */
async function callbackServer(t: { teardown(fn: () => unknown): void }): Promise<Callback> {
  let waiting: ((url: URL) => void) | undefined;
  const server = createHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Done</title><p>You can close this window.</p>');
    if (url.pathname === '/callback') waiting?.(url);
  });
  const port = await listenOnLoopback(t, server);
  return {
    url: `http://127.0.0.1:${port}/callback`,
    next: () => new Promise<URL>((resolve) => (waiting = resolve)),
  };
}

function newClient(revision: Revision): Client {
  return new Client({ name: 'browser-test', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
}

/**
 * The whole flow: connect (refused, the SDK discovers, registers or uses the document
 * URL, and hands over the authorization URL); the browser logs in and consents; the
 * client finishes the exchange, reconnects and calls list_servers on /hub.
 */
async function runFlow(t: Test, browser: Browser, hubUrl: string, revision: Revision, callback: Callback, clientMetadataUrl?: string) {
  const provider = new MemoryOAuthProvider(callback.url, 'Browser test client', clientMetadataUrl);
  const endpoint = new URL(`${hubUrl}/hub`);
  const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
  await t.rejects(newClient(revision).connect(first), UnauthorizedError, 'the first connect needs authorization');
  const authorizationUrl = provider.authorizationUrl;
  if (!authorizationUrl) throw new Error('the SDK did not hand over an authorization URL');
  t.equal(authorizationUrl.origin + authorizationUrl.pathname, `${hubUrl}/authorize`);
  t.equal(authorizationUrl.searchParams.get('resource'), `${hubUrl}/hub`, 'the SDK asks for /hub as the resource');
  if (clientMetadataUrl) t.equal(authorizationUrl.searchParams.get('client_id'), clientMetadataUrl, 'the client_id is the document URL');
  else t.match(authorizationUrl.searchParams.get('client_id'), /^hcd_/, 'the client registered dynamically');

  const context = await browser.newContext();
  t.teardown(() => context.close());
  const page = await context.newPage();
  const landed = callback.next();
  await page.goto(authorizationUrl.href);
  t.equal(await page.locator('h1').textContent(), 'Allow access?');
  t.match(await page.locator('body').textContent(), 'Browser test client', 'the page names the client');
  t.match(await page.locator('body').textContent(), `${hubUrl}/hub`, 'and the resource');
  await page.locator('#password').fill('correct horse');
  await page.locator('button[value=approve]').click();
  const redirect = await landed;
  t.equal(redirect.searchParams.get('state'), provider.lastState, 'the state comes back');
  t.equal(redirect.searchParams.get('iss'), hubUrl, 'with the issuer (RFC 9207)');

  await first.finishAuth(redirect.searchParams);
  t.ok(provider.tokens()?.access_token, 'the code was exchanged');
  const client = newClient(revision);
  await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
  t.teardown(() => client.close());
  const listed = await client.callTool({ name: 'list_servers', arguments: {} });
  t.notOk(listed.isError, 'list_servers succeeds with the token');
  t.same((listed.structuredContent as { servers?: unknown } | undefined)?.servers, [], 'and lists the (no) servers of this hub');
}

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
t.teardown(() => browser.close());

t.test('dynamic registration', async (t) => {
  const hub = await startHubProcess(t);
  const callback = await callbackServer(t);
  for (const revision of REVISIONS) await t.test(revision, (t) => runFlow(t, browser, hub.url, revision, callback));
});

t.test('a metadata-document client, its document served over https on loopback', async (t) => {
  // A throwaway certificate for 127.0.0.1, trusted by the hub process alone through
  // NODE_EXTRA_CA_CERTS; the dev switch lets the fetcher reach loopback.
  const folder = t.testdir();
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    join(folder, 'key.pem'),
    '-out',
    join(folder, 'cert.pem'),
  ]);
  const callback = await callbackServer(t);
  let fetched = 0;
  const documents = createHttpsServer({ key: await readFile(join(folder, 'key.pem')), cert: await readFile(join(folder, 'cert.pem')) }, (request, response) => {
    fetched++;
    const document = { client_id: documentUrl, client_name: 'Browser test client', redirect_uris: [callback.url], token_endpoint_auth_method: 'none' };
    response.writeHead(request.url === '/client.json' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  const documentUrl = `https://127.0.0.1:${await listenOnLoopback(t, documents)}/client.json`;
  const hub = await startHubProcess(t, { plugin: { allowLoopbackMetadataDocuments: true }, env: { NODE_EXTRA_CA_CERTS: join(folder, 'cert.pem') } });
  for (const revision of REVISIONS) await t.test(revision, (t) => runFlow(t, browser, hub.url, revision, callback, documentUrl));
  t.ok(fetched > 0, 'the hub fetched the document');

  const untrusting = await startHubProcess(t, { plugin: { allowLoopbackMetadataDocuments: true } });
  const query = new URLSearchParams({ response_type: 'code', client_id: documentUrl, redirect_uri: callback.url, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
  const refused = await fetch(`${untrusting.url}/authorize?${query}`);
  t.equal(refused.status, 400, 'a hub that does not trust the certificate refuses the document');
  t.match(await refused.text(), /certificate/);
});
