import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { waitFor } from '../../core/children/helpers.js';

/*
 * Issue 54, item 7: an upstream that echoes the hub's configured header values (an API key)
 * puts them in what the hub relays. Every configured header value (and the credential part
 * of an `Authorization: Bearer ...`) is replaced by `[REDACTED]` in every string of the
 * tool result: an error's quoted body, a text answer, a JSON answer's text and structure.
 */
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Echo', version: '1' },
  paths: Object.fromEntries(['refuse', 'echo', 'plain'].map((name) => [`/${name}`, { get: { operationId: name, responses: { '200': { description: 'ok', content: { 'application/json': {} } } } } }])),
};

t.test('an upstream echoing the configured header values never hands them to the caller', async (t) => {
  const apiKey = randomBytes(18).toString('base64url');
  const bearer = randomBytes(18).toString('hex');
  const server = createServer((request, response) => {
    const seen = { key: request.headers['x-api-key'], authorization: request.headers.authorization, trace: request.headers['x-trace'] };
    if (request.method === 'HEAD') return void response.writeHead(200).end();
    if (request.url === '/refuse') return void response.writeHead(403, { 'content-type': 'text/plain' }).end(`key ${String(seen.key)} is not allowed; you sent ${String(seen.authorization)}`);
    if (request.url === '/plain') return void response.writeHead(200, { 'content-type': 'text/plain' }).end(`token=${bearer}&key=${String(seen.key)}`);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ seen, [String(seen.key)]: 'as a key' }));
  });
  const origin = `http://127.0.0.1:${await listenOnLoopback(t, server)}`;
  const folder = await mkdtemp(join(tmpdir(), 'openapi-redaction-'));
  await writeFile(join(folder, 'echo.json'), JSON.stringify(SPEC));
  const { hub, url } = await startTestHub(t, {
    config: {
      mcpServers: { echo: { type: 'openapi', spec: join(folder, 'echo.json'), baseUrl: origin, headers: { 'X-Api-Key': '${ECHO_KEY}', Authorization: `Bearer ${bearer}`, 'X-Trace': 'on' } } },
    },
    env: { ECHO_KEY: apiKey },
  });
  await waitFor('the openapi server to be up', () => hub.children.get('echo')?.status === 'up');
  const client = await connectClient(t, `${url}/echo/mcp`, '2026-07-28');
  const call = async (name: string) => await client.callTool({ name, arguments: {} });

  const refused = await call('refuse');
  t.equal(refused.isError, true, 'the 403 is a tool error');
  t.equal(
    (refused.content[0] as { text: string }).text,
    'server "echo": GET /refuse answered 403 Forbidden: key [REDACTED] is not allowed; you sent Bearer [REDACTED]',
    'its quoted body names neither the key nor the token',
  );

  const plain = await call('plain');
  t.equal((plain.content[0] as { text: string }).text, 'token=[REDACTED]&key=[REDACTED]', 'a text answer: the token alone (without "Bearer") is redacted too');

  const echoed = await call('echo');
  const said = JSON.stringify(echoed);
  t.notMatch(said, apiKey, 'the key is in no part of a JSON answer');
  t.notMatch(said, bearer, 'nor the token');
  t.same(
    echoed.structuredContent,
    { seen: { key: '[REDACTED]', authorization: 'Bearer [REDACTED]', trace: 'on' }, '[REDACTED]': 'as a key' },
    'structuredContent, keys included; a value shorter than 8 characters is no credential and stays',
  );
});
