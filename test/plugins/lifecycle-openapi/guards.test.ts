import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import Value from 'typebox/value';
import { stringify } from 'yaml';
import { LifecycleOpenApiOptions } from '../../../plugins/lifecycle-openapi/entry.js';
import { OPENAPI_ERROR_CODES } from '../../../plugins/lifecycle-openapi/errors.js';
import { planRequest } from '../../../plugins/lifecycle-openapi/request.js';
import { OpenApiRuntime } from '../../../plugins/lifecycle-openapi/runtime.js';
import { hubErrorCode } from '../../../core/plugin/index.js';
import { startTestHub } from '../../helpers/hub.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { waitFor } from '../../core/children/helpers.js';
import { NOTES_SCHEMAS, NOTES_SPEC } from './notes-api.js';

function runtime(folder: string, options: Partial<LifecycleOpenApiOptions> = {}): OpenApiRuntime {
  return new OpenApiRuntime({ options: Value.Default(LifecycleOpenApiOptions, options) as LifecycleOpenApiOptions, configDirectory: folder, version: 'test', upstreamAuth: () => undefined });
}

async function notesFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'openapi-guards-'));
  await writeFile(join(folder, 'notes.yaml'), NOTES_SPEC);
  await writeFile(join(folder, 'schemas.yaml'), NOTES_SCHEMAS);
  return folder;
}

/** The notes document (and the file its $refs name) served over plain http on loopback, counting fetches. */
async function specServer(t: { teardown(fn: () => unknown): void }): Promise<{ origin: string; fetches: string[] }> {
  const fetches: string[] = [];
  const server = createServer((request, response) => {
    fetches.push(request.url ?? '');
    const body = request.url === '/notes.yaml' ? NOTES_SPEC : request.url === '/schemas.yaml' ? NOTES_SCHEMAS : undefined;
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/yaml' }).end(body ?? 'no');
  });
  return { origin: `http://127.0.0.1:${await listenOnLoopback(t, server)}`, fetches };
}

t.test('a spec URL on a loopback or private address is refused unless allowed', async (t) => {
  const { origin, fetches } = await specServer(t);
  const { hub } = await startTestHub(t, { config: { mcpServers: { notes: { type: 'openapi', spec: `${origin}/notes.yaml`, baseUrl: 'http://127.0.0.1:9/v1' } } } });
  const notes = hub.children.get('notes');
  await waitFor('the start to fail', () => notes?.lastError !== undefined);
  t.match(
    notes?.lastError,
    /the OpenAPI document http:\/\/127\.0\.0\.1:\d+\/notes\.yaml could not be fetched: refusing to fetch .*only https is allowed/,
    'through the hub: refused, and the server says why',
  );
  for (const spec of ['https://127.0.0.1/notes.yaml', 'https://10.1.2.3/notes.yaml', 'https://[::1]/notes.yaml', 'https://169.254.169.254/latest']) {
    const error = await runtime('/')
      .describe('notes', { spec })
      .catch((caught: unknown) => caught);
    t.equal(hubErrorCode(error), OPENAPI_ERROR_CODES.SPEC_UNREADABLE, `${spec} is refused`);
    t.match((error as Error).message, /non-public address/);
  }
  t.same(fetches, [], 'nothing reached the spec server');

  const allowed = runtime('/', { allowLoopbackSpecUrls: true });
  const { tools } = await allowed.describe('notes', { spec: `${origin}/notes.yaml`, baseUrl: 'http://127.0.0.1:9/v1' });
  t.ok(
    tools.some((tool) => tool.tool.name === 'getNote'),
    'allowed: the document and the file its $refs name are fetched through the guard',
  );
  t.same(fetches, ['/notes.yaml', '/schemas.yaml']);
  await allowed.describe('notes', { spec: `${origin}/notes.yaml`, baseUrl: 'http://127.0.0.1:9/v1' });
  t.equal(fetches.length, 2, 'a second connect reads the cached document');
  allowed.forget();
  await allowed.describe('notes', { spec: `${origin}/notes.yaml`, baseUrl: 'http://127.0.0.1:9/v1' });
  t.equal(fetches.length, 4, 'after a reload it is fetched again');
  const small = await runtime('/', { allowLoopbackSpecUrls: true, maxSpecBytes: 1024 })
    .describe('big', { spec: `${origin}/notes.yaml` })
    .catch((caught: unknown) => caught);
  t.match((small as Error).message, /could not be fetched: the answer from http:\/\/127\.0\.0\.1:\d+ is too large/, 'a document over the size cap is refused');
});

t.test('a document fetched from a URL may not read local files through its $refs', async (t) => {
  const leaking = NOTES_SPEC.replace("'./schemas.yaml#/Note'", "'file:///etc/hostname'");
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/yaml' }).end(leaking));
  const origin = `http://127.0.0.1:${await listenOnLoopback(t, server)}`;
  const error = await runtime('/', { allowLoopbackSpecUrls: true })
    .describe('notes', { spec: `${origin}/notes.yaml` })
    .catch((caught: unknown) => caught);
  t.equal(hubErrorCode(error), OPENAPI_ERROR_CODES.SPEC_INVALID, (error as Error).message);
});

t.test('an operation that would leave the base URL origin is refused', async (t) => {
  const folder = await notesFolder();
  const { set, tools } = await runtime(folder).describe('notes', { spec: 'notes.yaml', baseUrl: 'https://api.example.com/v1' });
  t.same(set.refused, [{ label: 'GET /elsewhere', reason: "its server https://other.example/v1 is not on the base URL's origin https://api.example.com" }]);
  t.notOk(
    tools.some((tool) => tool.tool.name === 'elsewhere'),
    'not a tool',
  );
  const named = await runtime(folder)
    .describe('notes', { spec: 'notes.yaml', baseUrl: 'https://api.example.com/v1', operations: ['GET /elsewhere'] })
    .catch((caught: unknown) => caught);
  t.equal(hubErrorCode(named), OPENAPI_ERROR_CODES.OPERATION_UNKNOWN);
  t.match((named as Error).message, /"operations" names GET \/elsewhere, which is refused: its server https:\/\/other\.example\/v1 is not on the base URL's origin/);

  const getNote = tools.find((tool) => tool.tool.name === 'getNote');
  if (!getNote) throw new Error('no getNote');
  for (const id of ['..', '.']) t.throws(() => planRequest(getNote, { id }, {}), { message: `path parameter "id" may not be "${id}"` }, `a path parameter "${id}" cannot climb the path`);
  // Issue 54, item 7: a value that names another path is an argument error, not a segment an upstream that decodes %2F would route.
  for (const id of ['//evil.example/x', 'a/../../b', '%2e%2e', 'https://evil.example/', 'a%2Fb', 'a%252Fb', 'a\\b', '..%2f', 'x..y']) {
    t.throws(() => planRequest(getNote, { id }, {}), { message: 'path parameter "id" may not hold "/", "\\" or "..", even percent-encoded' }, `"${id}" is refused`);
  }
  for (const id of ['@evil.example', 'note 1', 'a.b', 'ünïcode', '50%']) {
    const planned = planRequest(getNote, { id }, {});
    t.equal(planned.url.origin, 'https://api.example.com', `"${id}" stays on the origin`);
    t.ok(planned.url.pathname.startsWith('/v1/notes/') && !planned.url.pathname.slice('/v1/notes/'.length).includes('/'), `"${id}" is one segment under the base path: ${planned.url.pathname}`);
  }
  const headers = planRequest(getNote, { id: 1 }, { Authorization: 'Bearer operator' }).headers;
  t.equal(headers.authorization, 'Bearer operator', "the operator's headers are sent");
});

t.test('which operations become tools', async (t) => {
  const folder = await notesFolder();
  const chosen = await runtime(folder).describe('notes', { spec: 'notes.yaml', baseUrl: 'https://api.example.com/v1', operations: ['getNote', 'POST /notes', 'put /notes/{id}'] });
  t.same(
    chosen.tools.map((tool) => tool.tool.name),
    ['create_note', 'getNote', 'put_notes_id'],
    'by operationId or METHOD /path, in document order',
  );
  const unknown = await runtime(folder)
    .describe('notes', { spec: 'notes.yaml', operations: ['nope'] })
    .catch((caught: unknown) => caught);
  t.match((unknown as Error).message, /"operations" names "nope", which the document does not declare/);

  const paths: Record<string, unknown> = {};
  for (let n = 0; n < 101; n++) paths[`/things/${n}`] = { get: { operationId: `thing${n}`, responses: { '200': { description: 'ok' } } } };
  await writeFile(join(folder, 'many.yaml'), stringify({ openapi: '3.0.3', info: { title: 'Many', version: '1' }, servers: [{ url: 'https://many.example' }], paths }));
  const refused = await runtime(folder)
    .describe('many', { spec: 'many.yaml' })
    .catch((caught: unknown) => caught);
  t.equal(hubErrorCode(refused), OPENAPI_ERROR_CODES.TOO_MANY_OPERATIONS);
  t.match((refused as Error).message, /declares 101 operations, more than 100 tools .*"operations" .*"allowTools"/);
  t.equal((await runtime(folder).describe('many', { spec: 'many.yaml', operations: ['thing1', 'thing2'] })).tools.length, 2, 'narrowed by operations');
  const allowTools = { spec: 'many.yaml', allowTools: ['thing1'] } as { spec: string };
  t.equal((await runtime(folder).describe('many', allowTools)).tools.length, 101, 'narrowed by allowTools (the kernel filters the list)');
});

t.test('Swagger 2.0 is refused with what to do', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'openapi-swagger-'));
  await writeFile(join(folder, 'old.json'), JSON.stringify({ swagger: '2.0', info: { title: 'Old', version: '1' }, paths: {} }));
  const error = await runtime(folder)
    .describe('old', { spec: 'old.json' })
    .catch((caught: unknown) => caught);
  t.equal(hubErrorCode(error), OPENAPI_ERROR_CODES.SPEC_INVALID);
  t.match((error as Error).message, /old\.json is a Swagger 2\.0 document; the openapi type reads OpenAPI 3\.0 and 3\.1: convert it first/);
  await writeFile(join(folder, 'broken.yaml'), 'openapi: 3.0.3\ninfo: { title: Broken }\npaths: {}\n');
  const broken = await runtime(folder)
    .describe('broken', { spec: 'broken.yaml' })
    .catch((caught: unknown) => caught);
  t.equal(hubErrorCode(broken), OPENAPI_ERROR_CODES.SPEC_INVALID, 'an invalid document is refused by the validator');
  const missing = await runtime(folder)
    .describe('missing', { spec: 'nowhere.yaml' })
    .catch((caught: unknown) => caught);
  t.match((missing as Error).message, /nowhere\.yaml does not exist/);
});
