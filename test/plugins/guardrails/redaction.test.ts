import { randomBytes } from 'node:crypto';
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { githubToken, textOf, viaHub, type Call } from './helpers.js';

/*
 * Issue 54, item 8: a redaction replaces the secret and nothing else. Each document holds
 * secrets of two kinds among data a caller needs; it comes back with each secret replaced by
 * `[REDACTED:<kind>]` and every other byte as it was, whichever way it travels (a result's
 * text from the child, the arguments to the child) and on every road.
 *
 * | road                        | result text | arguments |
 * |-----------------------------|-------------|-----------|
 * | /<name>/mcp, 2026-07-28     | yes         | yes       |
 * | /<name>/mcp, 2025-11-25     | yes         | yes       |
 * | /hub call_tool, both        | yes         | yes       |
 */

/** A child answering with the text it was given: `teller` has its results scanned, `listener` its arguments. */
function createEcho(): McpServer {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool(
    'say',
    { description: 'Answers with `text`', inputSchema: fromJsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }) },
    async ({ text }) => ({
      content: [{ type: 'text' as const, text }],
    }),
  );
  return server;
}

/** The documents, with the secrets they hold (each with its kind) and what they must become. */
function documents(): { name: string; text: string; expected: string }[] {
  const password = () => `pw${randomBytes(6).toString('hex')}`;
  const cases: { name: string; parts: (string | { secret: string; kind: string })[] }[] = [];
  const db = (scheme: string, host: string) => ({ secret: `${scheme}://admin:${password()}@${host}/app`, kind: 'database-connection-string' });
  const github = () => ({ secret: githubToken(), kind: 'github' });
  cases.push({ name: 'compact JSON', parts: ['{"db":"', db('postgres', 'db.internal:5432'), '","github_token":"', github(), '","replicas":[1,2],"ok":true}'] });
  cases.push({ name: 'JSON inside a JSON string', parts: ['{"config":"{\\"db\\":\\"', db('postgres', 'db.internal:5432'), '\\",\\"n\\":1}"}'] });
  cases.push({ name: 'YAML', parts: ['database:\n  url: ', db('postgres', 'db.internal:5432'), '\n  pool: 5\ngithub:\n  token: ', github(), '\n  org: acme\n'] });
  cases.push({ name: 'YAML, quoted', parts: ["url: '", db('mysql', '10.0.0.1:3306'), '\'\ntoken: "', github(), '"\n'] });
  cases.push({ name: '.env lines', parts: ['DATABASE_URL=', db('mysql', '10.0.0.1:3306'), '\nGITHUB_TOKEN=', github(), '\nDEBUG=1\n'] });
  cases.push({ name: 'URLs', parts: ['see <', db('postgres', 'db.internal:5432'), '>, then https://api.example.com/v1?access_token=', github(), '&page=2 and https://example.com/x'] });
  return cases.map(({ name, parts }) => ({
    name,
    text: parts.map((part) => (typeof part === 'string' ? part : part.secret)).join(''),
    expected: parts.map((part) => (typeof part === 'string' ? part : `[REDACTED:${part.kind}]`)).join(''),
  }));
}

t.test('a redaction replaces the secret and nothing else, byte for byte, on every road', async (t) => {
  const { url } = await startTestHub(t, {
    config: { plugins: { 'map-tools': false, 'guard-secrets': true } },
    setup: (hub) => {
      hub.servers.addInProcess('teller', createEcho, { guardSecrets: { directions: ['result'] } });
      hub.servers.addInProcess('listener', createEcho, { guardSecrets: { directions: ['arguments'] } });
    },
  });
  for (const revision of REVISIONS) {
    const roads: Record<string, (server: string) => Promise<Call>> = {
      [`/<name>/mcp on ${revision}`]: async (server) => {
        const client = await connectClient(t, `${url}/${server}/mcp`, revision);
        return async (tool, args) => await client.callTool({ name: tool, arguments: args });
      },
      [`/hub on ${revision}`]: async (server) => viaHub(await connectClient(t, `${url}/hub`, revision), server),
    };
    for (const [road, open] of Object.entries(roads)) {
      const teller = await open('teller');
      const listener = await open('listener');
      for (const { name, text, expected } of documents()) {
        t.equal(textOf(await teller('say', { text })), expected, `${road}, ${name}: the result`);
        t.equal(textOf(await listener('say', { text })), expected, `${road}, ${name}: the arguments the child got`);
      }
    }
  }
  const [json] = documents();
  const client = await connectClient(t, `${url}/teller/mcp`, '2026-07-28');
  const parsed = JSON.parse(textOf(await client.callTool({ name: 'say', arguments: { text: json?.text } }))) as Record<string, unknown>;
  t.same(parsed, { db: '[REDACTED:database-connection-string]', github_token: '[REDACTED:github]', replicas: [1, 2], ok: true }, 'the JSON is still JSON, with every key');
});
