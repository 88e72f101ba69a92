import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parse } from 'yaml';
import { OpenApiRuntime, newAjv } from '../../../plugins/lifecycle-openapi/runtime.js';
import { LifecycleOpenApiOptions } from '../../../plugins/lifecycle-openapi/entry.js';
import Value from 'typebox/value';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { waitFor } from '../../core/children/helpers.js';

// Published OpenAPI documents, shipped under their licences (test/fixtures/openapi/NOTICE).
const fixtures = fileURLToPath(new URL('../../../../test/fixtures/openapi/', import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

type Raw = { paths: Record<string, Record<string, unknown>>; components?: Record<string, Record<string, unknown>> };
type RawParameter = { name: string; in: string; required?: boolean; $ref?: string };
type RawSchema = { $ref?: string; properties?: Record<string, unknown>; required?: string[]; allOf?: unknown; anyOf?: unknown; oneOf?: unknown };

/** A `#/components/...` reference of the raw document, read here without the plugin's parser. */
function deref<T>(raw: Raw, value: T & { $ref?: string }): T {
  if (!value.$ref) return value;
  const [, , kind, name] = value.$ref.split('/');
  return raw.components?.[kind ?? '']?.[name ?? ''] as T;
}

function runtime(): OpenApiRuntime {
  return new OpenApiRuntime({ options: Value.Default(LifecycleOpenApiOptions, {}) as LifecycleOpenApiOptions, configDirectory: fixtures, version: 'test', upstreamAuth: () => undefined });
}

for (const file of ['petstore.yaml', 'petstore-expanded.yaml', 'github-slice.json']) {
  t.test(`${file}: every operation a tool whose input schema is valid JSON Schema and names what the operation needs`, async (t) => {
    const raw = parse(await readFile(`${fixtures}${file}`, 'utf8')) as Raw;
    const { tools } = await runtime().describe(file, { spec: file });
    const ajv = newAjv();
    let operations = 0;
    for (const [path, item] of Object.entries(raw.paths)) {
      for (const method of METHODS.filter((candidate) => item[candidate] !== undefined)) {
        operations++;
        const operation = item[method] as { operationId?: string; parameters?: RawParameter[]; requestBody?: { $ref?: string; required?: boolean; content: Record<string, unknown> } };
        const tool = tools.find((candidate) => candidate.operation.method === method && candidate.operation.path === path)?.tool;
        if (!tool) {
          t.fail(`no tool for ${method.toUpperCase()} ${path}`);
          continue;
        }
        if (operation.operationId) t.equal(tool.name, operation.operationId.replace(/[^A-Za-z0-9_.-]+/g, '_'), `${path}: named by its operationId`);
        t.match(tool.name, /^[A-Za-z0-9_.-]{1,128}$/, 'a valid MCP tool name');
        t.ok(ajv.validateSchema(tool.inputSchema), `${tool.name}: the input schema is valid JSON Schema 2020-12${ajv.errors ? ` (${ajv.errorsText(ajv.errors)})` : ''}`);
        t.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name}: and compiles`);
        if (tool.outputSchema) t.ok(ajv.validateSchema(tool.outputSchema) && tool.outputSchema.type === 'object', `${tool.name}: the output schema is a valid object schema`);
        const properties = tool.inputSchema.properties as Record<string, unknown>;
        const required = tool.inputSchema.required ?? [];
        // Flat: each name as it is, or prefixed with its location when two locations use it.
        const keyOf = (location: string, name: string): string | undefined => [name, `${location}_${name}`].find((key) => properties[key] !== undefined);
        const parameters = [...((item.parameters as RawParameter[] | undefined) ?? []), ...(operation.parameters ?? [])].map((parameter) => deref<RawParameter>(raw, parameter));
        for (const parameter of parameters) {
          const key = keyOf(parameter.in, parameter.name);
          t.ok(key, `${tool.name}: ${parameter.in} parameter ${parameter.name} is an argument`);
          if (key && (parameter.required || parameter.in === 'path')) t.ok(required.includes(key), `${tool.name}: ${parameter.name} is required`);
        }
        const body = operation.requestBody && deref(raw, operation.requestBody);
        const json = body && Object.entries(body.content).find(([type]) => type.includes('json'));
        if (body && json) {
          const schema = deref<RawSchema>(raw, (json[1] as { schema?: RawSchema }).schema ?? {});
          if (schema.properties && !schema.allOf && !schema.anyOf && !schema.oneOf) {
            for (const name of Object.keys(schema.properties)) {
              const key = keyOf('body', name);
              t.ok(key, `${tool.name}: body property ${name} is an argument`);
              if (key) t.equal(required.includes(key), body.required === true && (schema.required ?? []).includes(name), `${tool.name}: ${name} required as the document says`);
            }
            // A body property may itself be named "body" (GitHub's issues).
            if (!('body' in schema.properties)) t.notOk(properties.body, `${tool.name}: an object body is spread, not under "body"`);
          } else {
            t.ok(properties.body, `${tool.name}: takes the JSON body under "body"`);
            t.equal(required.includes('body'), body.required === true, `${tool.name}: body required as the document says`);
          }
        }
      }
    }
    t.equal(tools.length, operations, 'one tool per operation');
    t.ok(operations >= 3, `${operations} operations`);
  });
}

t.test('the Petstore through the hub, with a local stand-in for petstore.swagger.io', async (t) => {
  const seen: string[] = [];
  const standIn = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    if (request.url === '/v1/pets/7') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 7, name: 'Rex', tag: 'dog' }));
    response.writeHead(request.method === 'HEAD' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 404, message: 'no such pet' }));
  });
  const origin = `http://127.0.0.1:${await listenOnLoopback(t, standIn)}`;
  const { hub, url } = await startTestHub(t, { config: { mcpServers: { pets: { type: 'openapi', spec: `${fixtures}petstore.yaml`, baseUrl: `${origin}/v1` } } } });
  const pets = hub.children.get('pets');
  await waitFor('the petstore to be up', () => pets?.status === 'up');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/pets/mcp`, revision);
    t.same(
      (await client.listTools()).tools.map((tool) => tool.name),
      ['listPets', 'createPets', 'showPetById'],
      `${revision}: the Petstore's three operations`,
    );
    const pet = await client.callTool({ name: 'showPetById', arguments: { petId: '7' } });
    t.same(pet.structuredContent, { id: 7, name: 'Rex', tag: 'dog' }, `${revision}: a pet`);
  }
  t.ok(seen.includes('GET /v1/pets/7'));
});
