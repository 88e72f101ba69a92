import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import t from 'tap';
import Value from 'typebox/value';
import { LifecycleOpenApiOptions } from '../../../plugins/lifecycle-openapi/entry.js';
import { planRequest } from '../../../plugins/lifecycle-openapi/request.js';
import { OpenApiRuntime } from '../../../plugins/lifecycle-openapi/runtime.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { waitFor } from '../../core/children/helpers.js';
import { NOTES_SCHEMAS, NOTES_SPEC, startNotesApi } from './notes-api.js';

// Issue 60, item 7: tools take their arguments flat by default (as models guess first and
// other OpenAPI bridges do); a name two locations use is prefixed with its location; a body
// that is not an object stays under `body`; the grouped shape is an entry's choice.
//
// | road                 | channel                          | covered by                       |
// |----------------------|----------------------------------|----------------------------------|
// | /<name>/mcp, both    | tools/list input schema          | 'flat by default', 'grouped'     |
// | /<name>/mcp, both    | tools/call: the request sent     | 'flat by default', 'grouped'     |
// | /<name>/mcp, both    | tools/call: argument errors      | 'flat by default', 'grouped'     |
// | /hub call_tool       | the request sent                 | 'flat by default'                |
// | planRequest (direct) | unknown argument, path guard     | 'the request builder'            |

const text = (result: CallToolResult): string => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** Operations beside the notes API's own: a name in two locations, and bodies that are not objects. */
const EXTRA = `  /notes/{id}/replace:
    put:
      operationId: replaceNote
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer } }
        - { name: tag, in: query, schema: { type: string } }
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [title], properties: { id: { type: integer }, title: { type: string }, tag: { type: string } } }
      responses: { '200': { description: Replaced } }
  /notes/batch:
    post:
      operationId: addNotes
      parameters:
        - { name: body, in: query, schema: { type: string }, description: A query parameter that happens to be named body }
      requestBody:
        required: true
        content: { application/json: { schema: { type: array, items: { $ref: './schemas.yaml#/NewNote' } } } }
      responses: { '200': { description: Added } }
  /notes/text:
    post:
      operationId: addText
      requestBody:
        content: { application/json: { schema: { type: string } } }
      responses: { '200': { description: Added } }
`;

async function notesFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'openapi-arguments-'));
  await writeFile(join(folder, 'notes.yaml'), NOTES_SPEC.replace('paths:\n', `paths:\n${EXTRA}`));
  await writeFile(join(folder, 'schemas.yaml'), NOTES_SCHEMAS);
  return folder;
}

t.test('flat by default, grouped by choice: the schemas, and real calls to a REST API', async (t) => {
  const api = await startNotesApi(t);
  const folder = await notesFolder();
  const { hub, url } = await startTestHub(t, {
    config: {
      mcpServers: {
        notes: { type: 'openapi', spec: join(folder, 'notes.yaml'), baseUrl: `${api.origin}/v1` },
        grouped: { type: 'openapi', spec: join(folder, 'notes.yaml'), baseUrl: `${api.origin}/v1`, arguments: 'grouped' },
      },
    },
  });
  await waitFor('both openapi servers to be up', () => hub.children.get('notes')?.status === 'up' && hub.children.get('grouped')?.status === 'up');

  for (const revision of REVISIONS) {
    t.test(`flat by default, /notes/mcp on ${revision}`, async (t) => {
      const client = await connectClient(t, `${url}/notes/mcp`, revision);
      const byName = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
      t.same(
        byName.get('listNotes')?.inputSchema,
        { type: 'object', properties: { tag: { type: 'string', description: 'Only notes with this tag' }, limit: { type: 'integer', minimum: 1 } }, additionalProperties: false },
        'query parameters by their names',
      );
      t.same(
        byName.get('create_note')?.inputSchema,
        {
          type: 'object',
          properties: { 'X-Request-Id': { type: 'string' }, title: { type: 'string' }, tag: { type: 'string' } },
          required: ['X-Request-Id', 'title', 'tag'],
          additionalProperties: false,
        },
        "a header and the body's properties side by side; the required ones of a required body required",
      );
      t.same(
        byName.get('put_notes_id')?.inputSchema,
        { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, tag: { type: 'string' } }, required: ['id'], additionalProperties: false },
        "an optional body's properties are all optional",
      );
      t.same(
        byName.get('replaceNote')?.inputSchema,
        {
          type: 'object',
          properties: { path_id: { type: 'integer' }, query_tag: { type: 'string' }, body_id: { type: 'integer' }, title: { type: 'string' }, body_tag: { type: 'string' } },
          required: ['path_id', 'title'],
          additionalProperties: false,
        },
        'a name two locations use is prefixed with its location in both; the others stay as they are',
      );
      t.match(
        byName.get('addNotes')?.inputSchema,
        { properties: { query_body: { type: 'string' }, body_body: { type: 'array', items: { type: 'object', required: ['title', 'tag'] } } }, required: ['body_body'] },
        'a list body stays whole under "body" (prefixed here: a query parameter is named body too)',
      );
      t.same(byName.get('addText')?.inputSchema, { type: 'object', properties: { body: { type: 'string' } }, additionalProperties: false }, 'a string body stays under "body"');

      const list = await client.callTool({ name: 'listNotes', arguments: { tag: 'work', limit: 1 } });
      t.same(
        (list.structuredContent as { result: { title: string }[] }).result.map((note) => note.title),
        ['invoice'],
      );
      t.equal(api.seen.at(-1)?.url, '/v1/notes?tag=work&limit=1', 'flat query arguments in the query');

      const created = await client.callTool({ name: 'create_note', arguments: { 'X-Request-Id': `flat-${revision}`, title: 'flat', tag: 'test' } });
      t.notOk(created.isError, text(created));
      t.match(created.structuredContent, { title: 'flat', tag: 'test', requestId: `flat-${revision}` }, 'the header and the body properties reach the API');
      t.same(JSON.parse(api.seen.at(-1)?.body ?? 'null'), { title: 'flat', tag: 'test' }, 'the body is the body properties only');

      const replaced = await client.callTool({ name: 'replaceNote', arguments: { path_id: 3, query_tag: 'q', body_id: 9, title: 'moved', body_tag: 'b' } });
      t.notOk(replaced.isError, text(replaced));
      t.same(replaced.structuredContent, { id: '3', query: '?tag=q', body: { id: 9, title: 'moved', tag: 'b' } }, 'each prefixed argument goes to its own location, under its own name');

      const batch = [{ title: 'a', tag: 'x' }];
      await client.callTool({ name: 'addNotes', arguments: { query_body: 'q', body_body: batch } });
      t.same({ url: api.seen.at(-1)?.url, body: JSON.parse(api.seen.at(-1)?.body ?? 'null') as unknown }, { url: '/v1/notes/batch?body=q', body: batch }, 'a list body is sent as it is given');
      await client.callTool({ name: 'addText', arguments: { body: 'just text' } });
      t.equal(api.seen.at(-1)?.body, '"just text"', 'a string body is sent as JSON text');

      const before = api.seen.length;
      const unknown = await client.callTool({ name: 'getNote', arguments: { id: 1, path: { id: 2 } } });
      t.equal(unknown.isError, true);
      t.match(text(unknown), /^getNote: the arguments do not match its input schema \(at \/: must NOT have additional properties\)/, 'the grouped shape is refused by a flat tool');
      const missing = await client.callTool({ name: 'replaceNote', arguments: { id: 3, title: 'x' } });
      t.equal(missing.isError, true, 'an unprefixed name of a clash is not an argument');
      t.equal(api.seen.length, before, 'no request for a refused call');
    });

    t.test(`grouped by the entry's "arguments", /grouped/mcp on ${revision}`, async (t) => {
      const client = await connectClient(t, `${url}/grouped/mcp`, revision);
      const byName = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
      t.same(byName.get('getNote')?.inputSchema, {
        type: 'object',
        properties: { path: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false } },
        required: ['path'],
        additionalProperties: false,
      });
      t.same(byName.get('create_note')?.inputSchema.required, ['headers', 'body'], 'a required header and a required body make their groups required');
      const one = await client.callTool({ name: 'getNote', arguments: { path: { id: 2 } } });
      t.same(one.structuredContent, { id: 2, title: 'invoice', tag: 'work' }, 'a grouped call works');
      const replaced = await client.callTool({ name: 'replaceNote', arguments: { path: { id: 3 }, query: { tag: 'q' }, body: { id: 9, title: 'moved' } } });
      t.same(replaced.structuredContent, { id: '3', query: '?tag=q', body: { id: 9, title: 'moved' } }, 'no prefixes in the grouped shape');
      const flat = await client.callTool({ name: 'getNote', arguments: { id: 2 } });
      t.equal(flat.isError, true);
      t.match(text(flat), /^getNote: the arguments do not match its input schema/, 'flat arguments are refused by a grouped tool');
    });
  }

  t.test('through /hub call_tool', async (t) => {
    const client = await connectClient(t, `${url}/hub`, '2026-07-28');
    const result = await client.callTool({ name: 'call_tool', arguments: { server: 'notes', tool: 'replaceNote', arguments: { path_id: 1, title: 'hub' } } });
    t.notOk(result.isError, text(result));
    t.match(JSON.parse(text(result)), { id: '1', query: '', body: { title: 'hub' } });
  });
});

t.test('the request builder: flat arguments back to their locations, unknown ones refused, the path guard kept', async (t) => {
  const folder = await notesFolder();
  const runtime = new OpenApiRuntime({ options: Value.Default(LifecycleOpenApiOptions, {}) as LifecycleOpenApiOptions, configDirectory: folder, version: 'test', upstreamAuth: () => undefined });
  const { tools } = await runtime.describe('notes', { spec: 'notes.yaml', baseUrl: 'https://api.example.com/v1' });
  const tool = (name: string) => {
    const found = tools.find((candidate) => candidate.tool.name === name);
    if (!found) throw new Error(`no ${name}`);
    return found;
  };
  t.throws(
    () => planRequest(tool('getNote'), { id: 1, bogus: 2 }, {}),
    { name: 'ArgumentProblem', message: 'unknown argument "bogus"' },
    'an argument the tool does not take is refused, schema or not',
  );
  t.throws(() => planRequest(tool('getNote'), { path: { id: 1 } }, {}), { name: 'ArgumentProblem', message: 'unknown argument "path"' });
  t.throws(
    () => planRequest(tool('replaceNote'), { path_id: 'a%2Fb', title: 'x' }, {}),
    { message: 'path parameter "id" may not hold "/", "\\" or "..", even percent-encoded' },
    'a prefixed path parameter is guarded as any',
  );
  const planned = planRequest(tool('replaceNote'), { path_id: 4, query_tag: 't', body_tag: 'b', title: 'x' }, {});
  t.same(
    { url: planned.url.href, body: planned.body, type: planned.headers['content-type'] },
    { url: 'https://api.example.com/v1/notes/4/replace?tag=t', body: '{"tag":"b","title":"x"}', type: 'application/json' },
  );
  t.equal(planRequest(tool('create_note'), { 'X-Request-Id': 'r' }, {}).body, '{}', 'a required object body is sent even when none of its properties is given');
  t.equal(planRequest(tool('put_notes_id'), { id: 1 }, {}).body, undefined, 'an optional one is not');
  t.equal(planRequest(tool('listNotes'), {}, {}).url.search, '', 'a parameter not given is not sent');
  const grouped = await runtime.describe('grouped', { spec: 'notes.yaml', baseUrl: 'https://api.example.com/v1', arguments: 'grouped' });
  const getNote = grouped.tools.find((candidate) => candidate.tool.name === 'getNote');
  if (!getNote) throw new Error('no grouped getNote');
  t.equal(planRequest(getNote, { path: { id: 5 } }, {}).url.pathname, '/v1/notes/5', 'the grouped shape as before');
  t.throws(() => planRequest(getNote, { path: { id: '..' } }, {}), { message: 'path parameter "id" may not be ".."' });
});
