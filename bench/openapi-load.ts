// The openapi child type with a large document: an OpenAPI 3.1 document of N operations
// (generated: a path parameter, two query parameters, a JSON body and answer through
// shared $ref'd schemas each), read, validated and made into tools (the plugin's own work,
// best of the rounds), then a hub started with it and its tools listed by an SDK client on
// /<name>/mcp (2026-07-28): time from the hub's start to the server being up, and the
// listing's time and size.
// Run: npm run build && node dist/bench/openapi-load.js [operations=500] [rounds=5]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Value from 'typebox/value';
import { LifecycleOpenApiOptions } from '../plugins/lifecycle-openapi/entry.js';
import { OpenApiRuntime } from '../plugins/lifecycle-openapi/runtime.js';
import { startBenchHub } from './bench-hub.js';

const operations = Number(process.argv[2] ?? '500');
const rounds = Number(process.argv[3] ?? '5');
const round = (value: number): number => Number(value.toFixed(1));

function document(count: number): unknown {
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < count; index += 1) {
    const method = ['get', 'post', 'put', 'delete'][index % 4] as string;
    const path = `/resources${Math.floor(index / 4)}/{id}`;
    const item = (paths[path] ??= { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }] }) as Record<string, unknown>;
    item[method] = {
      operationId: `operation${index}`,
      summary: `Operation ${index}`,
      description: `Does thing ${index} to a resource of kind ${Math.floor(index / 4)}.`,
      parameters: [
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
        { name: 'fields', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
      ],
      ...(method === 'post' || method === 'put' ? { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Input' } } } } } : {}),
      responses: { '200': { description: 'The resource', content: { 'application/json': { schema: { $ref: '#/components/schemas/Resource' } } } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: `Generated (${count} operations)`, version: '1.0.0' },
    paths,
    components: {
      schemas: {
        Input: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } }, owner: { $ref: '#/components/schemas/Person' } },
        },
        Resource: { allOf: [{ $ref: '#/components/schemas/Input' }, { type: 'object', required: ['id'], properties: { id: { type: 'string' }, created: { type: 'string', format: 'date-time' } } }] },
        Person: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } } },
      },
    },
  };
}

const folder = await mkdtemp(join(tmpdir(), 'bench-openapi-'));
const spec = join(folder, 'generated.json');
await writeFile(spec, JSON.stringify(document(operations)));
// The API itself: the connect's one HEAD request is all it answers here.
const api = createServer((_request, response) => response.writeHead(200).end());
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
const address = api.address();
const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api`;

const options = Value.Default(LifecycleOpenApiOptions, { maxOperations: operations }) as LifecycleOpenApiOptions;
const loads: number[] = [];
let tools = 0;
for (let index = 0; index < rounds; index += 1) {
  const runtime = new OpenApiRuntime({ options, configDirectory: folder, version: 'bench', upstreamAuth: () => undefined });
  const started = performance.now();
  tools = (await runtime.describe('generated', { spec, baseUrl })).tools.length;
  loads.push(performance.now() - started);
}

const started = performance.now();
const benchHub = await startBenchHub({
  plugins: { 'oauth-as': false, 'map-tools': false, 'lifecycle-openapi': { maxOperations: operations } },
  mcpServers: { generated: { type: 'openapi', spec, baseUrl } },
});
const child = benchHub.hub.children.get('generated');
await child?.ensureUp();
const upMs = performance.now() - started;
const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StreamableHTTPClientTransport(new URL(`${benchHub.url}/generated/mcp`)));
const listings: { ms: number; bytes: number; count: number }[] = [];
for (let index = 0; index < rounds; index += 1) {
  const listed = performance.now();
  const { tools: listedTools } = await client.listTools();
  listings.push({ ms: performance.now() - listed, bytes: Buffer.byteLength(JSON.stringify(listedTools)), count: listedTools.length });
}
await client.close();
await benchHub.close();
api.close();
await rm(folder, { recursive: true, force: true });

const best = (values: number[]): number => Math.min(...values);
console.log(
  JSON.stringify(
    {
      operations,
      rounds,
      tools,
      documentBytes: Buffer.byteLength(JSON.stringify(document(operations))),
      loadAndBuildMs: { best: round(best(loads)), all: loads.map(round) },
      hubStartUntilUpMs: round(upMs),
      listToolsMs: { best: round(best(listings.map((listing) => listing.ms))), all: listings.map((listing) => round(listing.ms)) },
      listedTools: listings[0]?.count,
      listBytes: listings[0]?.bytes,
    },
    null,
    2,
  ),
);
