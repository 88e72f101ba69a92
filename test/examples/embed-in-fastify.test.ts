import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { buildApp } from '../../examples/embed-in-fastify/app.js';
import { postOperatorLogin } from '../helpers/operator-login.js';

t.test('the hub answers under its prefix beside the host app route', async (t) => {
  const app = await buildApp({ DATA_PATH: await mkdtemp(join(tmpdir(), 'embed-')) });
  t.teardown(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  t.same(await (await fetch(`${base}/hello`)).json(), { hello: 'from the host application' });
  const health = await fetch(`${base}/tools/health`);
  t.equal(health.status, 200);
  t.match(await health.json(), { status: 'ok', servers: {} });
  t.equal((await fetch(`${base}/health`)).status, 404, 'nothing of the hub leaks outside its prefix');
});

t.test('the status page and its login follow the prefix', async (t) => {
  const app = await buildApp({ DATA_PATH: await mkdtemp(join(tmpdir(), 'embed-')), HUB_PASSWORD: 'correct horse' });
  t.teardown(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const page = await fetch(`${base}/tools/status`);
  const html = await page.text();
  t.match(html, '<form method="post" action="/tools/login">', 'the login form posts under the prefix');
  t.match(html, 'name="return_to" value="/tools/status"');
  t.match(page.headers.getSetCookie().join('\n'), /hub_csrf=[^;]+;.*Path=\/tools;/, 'its cookie is scoped to the prefix');
  const login = await postOperatorLogin(base, '/tools', page, html, 'correct horse');
  t.equal(login.status, 303);
  t.equal(login.headers.get('location'), '/tools/status', 'back to the page, under the prefix');
  t.match(login.headers.getSetCookie().join('\n'), /hub_session=[^;]+;.*Path=\/tools;/);
  t.equal((await fetch(`${base}/status`)).status, 404);
});

t.test('the example runs as a program', async (t) => {
  const main = fileURLToPath(new URL('../../examples/embed-in-fastify/main.js', import.meta.url));
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: '0', DATA_PATH: await mkdtemp(join(tmpdir(), 'embed-')) } });
  t.teardown(() => child.kill());
  const line = await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString())));
  t.match(line, /listening: GET \/hello/);
});
