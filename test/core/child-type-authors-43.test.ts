import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fromJsonSchema, McpServer, type JsonSchemaType } from '@modelcontextprotocol/server';
import Fastify from 'fastify';
import t from 'tap';
import { Type } from 'typebox';
import { hub } from '../../core/kernel.js';
import { connectInProcess, type ChildType } from '../../core/plugin/child-type.js';
import { REVISIONS, connectClient } from '../helpers/clients.js';

// Issue 43.4: a child type reads the config folder from its connect context (no module
// global), builds a tool from a JSON Schema document with the SDK's fromJsonSchema (as
// docs/plugins.md shows), and a misspelt plugin option gets a did-you-mean.

interface ToolDocument {
  name: string;
  description: string;
  inputSchema: JsonSchemaType;
}

/** A child type whose servers are one JSON document each, naming a tool and its input schema; `document` is relative to the config folder. */
const DocumentEntry = Type.Object({ document: Type.String() });
const documentTools: ChildType<typeof DocumentEntry> = {
  type: 'document-tools',
  entrySchema: DocumentEntry,
  alwaysRunning: () => false,
  async connect(entry, context) {
    const path = resolve(context.configDirectory, entry.document);
    const tool = JSON.parse(await readFile(path, 'utf8')) as ToolDocument;
    const factory = () => {
      const server = new McpServer({ name: context.name, version: '1.0.0' });
      server.registerTool(tool.name, { description: tool.description, inputSchema: fromJsonSchema<{ city: string }>(tool.inputSchema) }, async ({ city }) => ({
        content: [{ type: 'text', text: `read from ${path}: ${city}` }],
      }));
      return server;
    };
    return connectInProcess(factory, context, { name: 'mcp-hub', version: 'test' });
  },
};

t.test("the connect context carries the config file's folder", async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'hub-config-folder-'));
  await mkdir(join(folder, 'tools'));
  const document: ToolDocument = {
    name: 'weather',
    description: 'The weather in a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
  };
  await writeFile(join(folder, 'tools', 'weather.json'), JSON.stringify(document));
  await writeFile(join(folder, 'mcp.json'), JSON.stringify({ mcpServers: { weather: { type: 'document-tools', document: 'tools/weather.json' } }, plugins: { 'oauth-as': false } }));
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  t.teardown(() => app.close());
  await app.register(hub, {
    // The working directory is not the config folder: only the context can say where the document is.
    env: { HUB_CONFIG: join(folder, 'mcp.json'), DATA_PATH: await mkdtemp(join(tmpdir(), 'hub-data-')) },
    watchConfig: false,
    setup: (plugins) => plugins.childTypes.add(documentTools.type, documentTools),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${base}/weather/mcp`, revision);
    const { tools } = await client.listTools();
    t.match(tools, [{ name: 'weather', inputSchema: { properties: { city: { type: 'string' } }, required: ['city'] } }], `${revision}: the tool from the JSON Schema`);
    const answer = await client.callTool({ name: 'weather', arguments: { city: 'Lyon' } });
    t.same(answer.content, [{ type: 'text', text: `read from ${join(folder, 'tools', 'weather.json')}: Lyon` }]);
    const refused = await client.callTool({ name: 'weather', arguments: { city: '' } });
    t.ok(refused.isError, "the schema's own rule refuses an empty city");
  }
});

t.test('a misspelt plugin option is refused with the option it was meant to be', async (t) => {
  const app = Fastify({ logger: false, pluginTimeout: 0 });
  t.teardown(() => app.close());
  await t.rejects(
    (async () => {
      await app.register(hub, { env: { DATA_PATH: await mkdtemp(join(tmpdir(), 'hub-data-')) }, config: { mcpServers: {}, plugins: { 'oauth-as': { dynamicRegistraton: false } } } });
    })(),
    { code: 'HUB_ERR_PLUGIN_OPTIONS_INVALID', message: 'plugin "oauth-as": option "dynamicRegistraton": expected no such key (did you mean "dynamicRegistration"?)' },
  );
  const far = Fastify({ logger: false, pluginTimeout: 0 });
  t.teardown(() => far.close());
  await t.rejects(
    (async () => {
      await far.register(hub, { env: { DATA_PATH: await mkdtemp(join(tmpdir(), 'hub-data-')) }, config: { mcpServers: {}, plugins: { 'tool-pinning': { somethingElse: 1 } } } });
    })(),
    { code: 'HUB_ERR_PLUGIN_OPTIONS_INVALID', message: /option "somethingElse": expected no such key \(the known ones are "/ },
    'with nothing close, the known options are listed',
  );
});
