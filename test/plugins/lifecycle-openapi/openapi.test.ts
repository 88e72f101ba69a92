import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { waitFor } from '../../core/children/helpers.js';
import { NOTES_SCHEMAS, NOTES_SPEC, PNG_BYTES, startNotesApi } from './notes-api.js';

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

t.test('an openapi server: a real REST API through /<name>/mcp and /hub on both revisions', async (t) => {
  const api = await startNotesApi(t);
  const folder = await mkdtemp(join(tmpdir(), 'openapi-notes-'));
  await writeFile(join(folder, 'notes.yaml'), NOTES_SPEC);
  await writeFile(join(folder, 'schemas.yaml'), NOTES_SCHEMAS);
  const logs: string[] = [];
  const { hub, url } = await startTestHub(t, {
    config: {
      plugins: { 'lifecycle-openapi': { requestTimeoutMs: 2000 } },
      mcpServers: { notes: { type: 'openapi', spec: join(folder, 'notes.yaml'), baseUrl: `${api.origin}/v1`, headers: { 'X-Api-Key': '${NOTES_KEY}' } } },
    },
    env: { NOTES_KEY: 'key-from-env' },
    logs,
  });
  const notes = hub.children.get('notes');
  if (!notes) throw new Error('no notes server');
  await waitFor('the openapi server to be up', () => notes.status === 'up').catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}: ${notes.status}, ${notes.lastError ?? 'no error'}`);
  });
  t.ok(notes.alwaysRunning, 'always running');
  t.same(api.seen[0] && { method: api.seen[0].method, url: api.seen[0].url }, { method: 'HEAD', url: '/v1' }, 'the connect made one HEAD request to the base URL');
  t.ok(
    logs.some((line) => /GET \/elsewhere is not offered: its server https:\/\/other\.example\/v1 is not on the base URL's origin/.test(line)),
    'an operation on another origin is refused, and the log says why',
  );

  for (const revision of REVISIONS) {
    t.test(`/notes/mcp on ${revision}`, async (t) => {
      const client = await connectClient(t, `${url}/notes/mcp`, revision);
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      t.same(
        [...byName.keys()].sort(),
        ['boom', 'create_note', 'deleteNote', 'getNote', 'listNotes', 'logo', 'put_notes_id', 'report', 'slow', 'stats'],
        'one tool per operation; names sanitised or made of method and path; none for the other origin',
      );
      t.match(byName.get('getNote'), { title: 'One note', annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: true } });
      t.match(byName.get('deleteNote')?.annotations, { readOnlyHint: false, destructiveHint: true, openWorldHint: true });
      t.match(byName.get('put_notes_id')?.annotations, { readOnlyHint: false, idempotentHint: true, destructiveHint: false });
      t.same(byName.get('create_note')?.inputSchema.required, ['X-Request-Id', 'title', 'tag'], "a required header and a required body's required properties are required, flat");
      t.same(
        byName.get('getNote')?.inputSchema,
        { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false },
        'a path parameter is a required argument by its name',
      );
      t.match(byName.get('getNote')?.outputSchema, { type: 'object', required: ['id', 'title', 'tag'] }, 'the 2xx JSON schema is the output schema');
      t.match(byName.get('listNotes')?.outputSchema, { type: 'object', properties: { result: { type: 'array' } }, required: ['result'] }, 'a list is answered under result');

      const before = api.seen.length;
      const list = await client.callTool({ name: 'listNotes', arguments: { tag: 'home', limit: 5 } });
      t.notOk(list.isError);
      t.same(
        (list.structuredContent as { result: { title: string }[] }).result.map((note) => note.title),
        ['groceries', 'plumber'],
      );
      t.same(JSON.parse(text(list)), (list.structuredContent as { result: unknown }).result, 'the text is the JSON answer');
      const request = api.seen[before];
      t.equal(request?.url, '/v1/notes?tag=home&limit=5', 'query parameters in the URL');
      t.equal(request?.headers['x-api-key'], 'key-from-env', 'the configured header, ${VAR} expanded, goes with every call');

      const one = await client.callTool({ name: 'getNote', arguments: { id: 2 } });
      t.same(one.structuredContent, { id: 2, title: 'invoice', tag: 'work' }, 'an object answer is the structured content itself');

      const created = await client.callTool({ name: 'create_note', arguments: { 'X-Request-Id': `req-${revision}`, title: `from ${revision}`, tag: 'test' } });
      t.notOk(created.isError, text(created));
      t.match(created.structuredContent, { title: `from ${revision}`, tag: 'test', requestId: `req-${revision}` }, 'header and JSON body reach the API');
      t.equal(api.seen.at(-1)?.headers['content-type'], 'application/json');

      const missing = await client.callTool({ name: 'getNote', arguments: { id: 99 } });
      t.equal(missing.isError, true);
      t.match(text(missing), /^server "notes": GET \/notes\/\{id\} answered 404 Not Found: \{"error":"no note 99"\}$/, 'a 4xx: status, reason and the body');
      const boom = await client.callTool({ name: 'boom', arguments: {} });
      t.equal(boom.isError, true);
      t.match(text(boom), /answered 500 Internal Server Error: the database is on fire/, 'a 5xx: status, reason and the body');
      const slow = await client.callTool({ name: 'slow', arguments: {} });
      t.equal(slow.isError, true);
      t.match(text(slow), /^server "notes": GET \/slow got no complete answer from http:\/\/127\.0\.0\.1:\d+ within 2 s$/, 'a slow answer: a tool error naming the server');
      const report = await client.callTool({ name: 'report', arguments: {} });
      t.same(report.content, [{ type: 'text', text: '3 notes, 2 at home' }], 'a text answer is text');
      t.notOk(report.structuredContent);
      const logo = await client.callTool({ name: 'logo', arguments: {} });
      t.same(logo.content, [{ type: 'resource', resource: { uri: `${api.origin}/v1/logo`, mimeType: 'image/png', blob: PNG_BYTES.toString('base64') } }], 'a binary answer is an embedded resource');
      const stats = await client.callTool({ name: 'stats', arguments: {} });
      t.equal(stats.isError, true);
      t.match(text(stats), /does not match the response schema its document declares \(at \/count: must be integer\)/, 'structured content is checked against the output schema');
      const wrong = await client.callTool({ name: 'getNote', arguments: { id: 'two' } });
      t.equal(wrong.isError, true);
      t.match(text(wrong), /^getNote: the arguments do not match its input schema \(at \/id: must be integer\)/);
      const deleted = await client.callTool({ name: 'deleteNote', arguments: { id: (created.structuredContent as { id: number }).id } });
      t.same(deleted.content, [{ type: 'text', text: '204 No Content (no content)' }]);
    });

    t.test(`/hub on ${revision}`, async (t) => {
      const client = await connectClient(t, `${url}/hub`, revision);
      const result = await client.callTool({ name: 'call_tool', arguments: { server: 'notes', tool: 'getNote', arguments: { id: 1 } } });
      t.notOk(result.isError, text(result));
      t.match(JSON.parse(text(result)), { id: 1, title: 'groceries' }, 'the tool answers through call_tool');
      const listed = await client.callTool({ name: 'list_tools', arguments: { server: 'notes' } });
      t.match(
        (listed.structuredContent as { tools: { name: string }[] }).tools.map((tool) => tool.name),
        ['listNotes', 'create_note', 'getNote'],
      );
    });
  }
});
