import { createServer } from 'node:http';
import t from 'tap';
import { allowedAddress } from '../../../core/net/guarded-fetch.js';
import { MetadataDocumentFetcher } from '../../../plugins/oauth-as/metadata-document.js';
import { listenOnLoopback } from '../../helpers/net.js';

/** A loopback server answering each path with the given handler. */
async function documents(t: { teardown(fn: () => unknown): void }, routes: Record<string, (base: string) => { status?: number; headers?: Record<string, string>; body: string }>) {
  let base = '';
  const server = createServer((request, response) => {
    const route = routes[request.url ?? ''];
    if (!route) return void response.writeHead(404).end();
    const { status = 200, headers = {}, body } = route(base);
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  });
  base = `http://127.0.0.1:${await listenOnLoopback(t, server)}`;
  return base;
}

t.test('address classes', async (t) => {
  t.ok(allowedAddress('93.184.216.34', false));
  for (const address of ['10.0.0.1', '192.168.1.1', '172.16.0.1', '169.254.169.254', '127.0.0.1', '::1', 'fe80::1', 'fc00::1', '0.0.0.0', '::ffff:127.0.0.1']) {
    t.notOk(allowedAddress(address, false), address);
  }
  t.ok(allowedAddress('127.0.0.1', true));
  t.notOk(allowedAddress('10.0.0.1', true), 'the dev switch allows loopback only');
});

t.test('refusals', async (t) => {
  const base = await documents(t, {
    '/redirect': () => ({ status: 302, headers: { location: '/ok' }, body: '' }),
    '/big': (b) => ({ body: JSON.stringify({ client_id: `${b}/big`, redirect_uris: ['http://127.0.0.1/cb'], padding: 'x'.repeat(70_000) }) }),
    '/long-name': (b) => ({ body: JSON.stringify({ client_id: `${b}/long-name`, redirect_uris: ['http://127.0.0.1/cb'], client_name: 'n'.repeat(60_000) }) }),
    '/other': () => ({ body: JSON.stringify({ client_id: 'https://elsewhere.example/doc', redirect_uris: ['http://127.0.0.1/cb'] }) }),
    '/ok': (b) => ({ headers: { 'cache-control': 'max-age=60' }, body: JSON.stringify({ client_id: `${b}/ok`, redirect_uris: ['http://127.0.0.1/cb'], client_name: 'Doc' }) }),
  });
  const strict = new MetadataDocumentFetcher(false);
  const refused = { code: 'HUB_ERR_OAUTH_METADATA_DOCUMENT' };
  const blocked = { ...refused, cause: { code: 'HUB_ERR_FETCH_BLOCKED' } };
  await t.rejects(strict.get(`${base}/ok`), { ...refused, message: /https/ }, 'http and loopback need the dev switch');
  await t.rejects(strict.get('https://127.0.0.1/doc'), blocked);
  await t.rejects(strict.get('https://10.1.2.3/doc'), blocked);
  await t.rejects(strict.get('https://localhost/doc'), blocked, 'names are checked on the resolved address');
  await t.rejects(strict.get('https://example.com/'), { ...refused, message: /path/ });

  const dev = new MetadataDocumentFetcher(true);
  await t.rejects(dev.get(`${base}/redirect`), { ...refused, message: /302 \(redirects are not followed\)/ });
  await t.rejects(dev.get(`${base}/big`), { ...refused, cause: { code: 'HUB_ERR_FETCH_LIMIT' } });
  await t.rejects(dev.get(`${base}/other`), { ...refused, message: /not its own URL/ });
  await t.rejects(dev.get(`${base}/long-name`), { ...refused, message: /client_name is longer than 200 characters/ }, 'a name is capped as a registered one is');
  t.match(await dev.get(`${base}/ok`), { client_name: 'Doc' });
});

t.test('the document cache is bounded, in entries and in bytes', async (t) => {
  const hits = new Map<string, number>();
  let base = '';
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const padding = path.startsWith('/big/') ? 'x'.repeat(60_000) : '';
    response
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' })
      .end(JSON.stringify({ client_id: `${base}${path}`, redirect_uris: ['http://127.0.0.1/cb'], client_name: 'small', padding }));
  });
  base = `http://127.0.0.1:${await listenOnLoopback(t, server)}`;
  const fetcher = new MetadataDocumentFetcher(true);

  await fetcher.get(`${base}/small/0`);
  await fetcher.get(`${base}/small/0`);
  t.equal(hits.get('/small/0'), 1, 'a cacheable document is fetched once');

  // Each document is about 60 KB: 100 of them would hold 6 MB, past the cache's 4 MB.
  for (let index = 0; index < 100; index++) await fetcher.get(`${base}/big/${index}`);
  await fetcher.get(`${base}/big/0`);
  t.equal(hits.get('/big/0'), 2, 'the oldest large document was dropped to stay within the byte bound');

  // Past the cache's 1,000 entries, while all of them together hold far less than its bytes.
  for (let index = 1; index <= 1100; index++) await fetcher.get(`${base}/small/${index}`);
  await fetcher.get(`${base}/small/1`);
  t.equal(hits.get('/small/1'), 2, 'the oldest small document was dropped to stay within the entry bound');
});
