import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import t from 'tap';
import type { Hub } from '../../../core/hub.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { callMeta, metaError, structuredMeta } from './helpers.js';

const noArguments = fromJsonSchema<Record<string, never>>({ type: 'object', properties: {} });
const LONG_FIRST_LINE = `Reads ${'a very long line '.repeat(10)}`;

/** A child whose tools carry annotations, a long multi-line description and a tool error. */
function createAnnotated(): McpServer {
  const server = new McpServer({ name: 'annotated', version: '1.0.0' });
  server.registerTool('read_thing', { description: `${LONG_FIRST_LINE}\nSecond line.`, inputSchema: noArguments, annotations: { readOnlyHint: true, openWorldHint: false } }, async () => ({
    content: [{ type: 'text', text: 'thing' }],
  }));
  server.registerTool('fails', { description: 'Always answers with a tool error', inputSchema: noArguments }, async () => ({
    content: [{ type: 'text', text: 'nope' }],
    isError: true,
  }));
  return server;
}

function setup(hub: Hub): void {
  hub.children.addInProcess('sink', createKitchenSink, { denyTools: ['hidden_by_filter'] });
  hub.children.addInProcess('annotated', createAnnotated);
  hub.children.addInProcess('solo', createKitchenSink, { hub: false });
  hub.children.addInProcess('parked', createAnnotated);
}

/** Every in-process child up, and `parked` stopped: an always-running server that is not up. */
async function settle(hub: Hub): Promise<void> {
  const child = (name: string) => {
    const found = hub.children.get(name);
    if (!found) throw new Error(`no child ${name}`);
    return found;
  };
  await Promise.all(['sink', 'annotated', 'solo', 'parked'].map((name) => child(name).ensureUp()));
  await child('parked').disconnect('stopped');
}

for (const revision of REVISIONS) {
  t.test(`/hub meta-tools with in-process children on ${revision}`, async (t) => {
    const { url, hub } = await startTestHub(t, { kernel: setup, config: { plugins: { 'map-tools': false } } });
    await settle(hub);
    const client = await connectClient(t, `${url}/hub`, revision);

    t.test('exactly six tools, with their schemas and annotations', async (t) => {
      const { tools } = await client.listTools();
      t.same(
        tools.map((tool) => tool.name),
        ['list_servers', 'list_tools', 'get_tool_schema', 'call_tool', 'wake_server', 'sleep_server'],
      );
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      for (const name of ['list_servers', 'list_tools', 'get_tool_schema']) t.match(byName.get(name)?.annotations, { readOnlyHint: true }, `${name} is read-only`);
      for (const name of ['wake_server', 'sleep_server'])
        t.match(byName.get(name)?.annotations, { readOnlyHint: false, destructiveHint: false, idempotentHint: true }, `${name} is an idempotent write`);
      t.match(byName.get('call_tool')?.annotations, { destructiveHint: true, openWorldHint: true });
      t.notOk(byName.get('call_tool')?.outputSchema, 'call_tool returns the child result, so it declares no output schema');
      for (const name of ['list_servers', 'list_tools', 'get_tool_schema', 'wake_server', 'sleep_server'])
        t.equal(byName.get(name)?.outputSchema?.type, 'object', `${name} has an object-rooted output schema`);
      t.same(byName.get('call_tool')?.inputSchema.required, ['server', 'tool']);
      t.match(byName.get('list_servers')?.description, /list_tools/, 'descriptions steer to the next step');
    });

    t.test('list_servers lists every server, hidden ones marked', async (t) => {
      const { servers } = await structuredMeta(t, client, 'list_servers');
      t.same(servers, [
        { name: 'sink', description: 'Kitchen sink', status: 'up', toolCount: 5 },
        { name: 'annotated', description: 'annotated', status: 'up', toolCount: 2 },
        { name: 'solo', description: 'Kitchen sink', status: 'up', toolCount: 6, hidden: true },
        { name: 'parked', description: 'parked', status: 'stopped', toolCount: 2 },
      ]);
    });

    t.test('list_tools: filtered, one-line descriptions, annotations verbatim, output-schema marker', async (t) => {
      t.same(await structuredMeta(t, client, 'list_tools', { server: 'sink' }), {
        server: 'sink',
        tools: [
          { name: 'list_colours', description: 'Colours as an array', hasOutputSchema: true },
          { name: 'wrapped_colours', description: 'Colours already wrapped by the child', hasOutputSchema: true },
          { name: 'slow_with_progress', description: 'Sends progress every 100 ms for `steps` steps' },
          { name: 'hang', description: 'Never answers until cancelled' },
          { name: 'confirm_deploy', description: 'Asks the person to confirm (input required), or falls back to a confirmation argument when the caller cannot be asked' },
        ],
      });
      const annotated = await structuredMeta(t, client, 'list_tools', { server: 'annotated' });
      t.same(annotated.tools, [
        { name: 'read_thing', description: LONG_FIRST_LINE.slice(0, 120), annotations: { readOnlyHint: true, openWorldHint: false } },
        { name: 'fails', description: 'Always answers with a tool error' },
      ]);
    });

    t.test('list_tools refusals', async (t) => {
      t.match(await metaError(client, 'list_tools', { server: 'nobody' }), /^Unknown server: "nobody"/);
      t.equal(await metaError(client, 'list_tools', { server: 'solo' }), `Server "solo" is not offered through /hub (hub: false). Use its own endpoint: ${hub.settings.baseUrl}/solo/mcp`);
      t.match(await metaError(client, 'list_tools', { server: 'parked' }), /^Server "parked" is stopped\b.*always running/, 'names the state');
    });

    t.test('get_tool_schema', async (t) => {
      const colours = await structuredMeta(t, client, 'get_tool_schema', { server: 'sink', tool: 'list_colours' });
      t.same(
        colours,
        {
          server: 'sink',
          name: 'list_colours',
          description: 'Colours as an array',
          inputSchema: { type: 'object', properties: {} },
          outputSchema:
            revision === '2025-11-25' ? { type: 'object', properties: { result: { type: 'array', items: { type: 'string' } } }, required: ['result'] } : { type: 'array', items: { type: 'string' } },
        },
        'the output schema is the one call_tool delivers on this revision; no annotations key',
      );
      const thing = await structuredMeta(t, client, 'get_tool_schema', { server: 'annotated', tool: 'read_thing' });
      t.equal(thing.description, `${LONG_FIRST_LINE}\nSecond line.`, 'untruncated');
      t.same(thing.annotations, { readOnlyHint: true, openWorldHint: false });
      t.notOk('outputSchema' in thing);

      const unknown = await metaError(client, 'get_tool_schema', { server: 'sink', tool: 'no_such_tool' });
      t.equal(unknown, 'Unknown tool: "no_such_tool" on server "sink". Call list_tools with server "sink" for its tools.');
      const filtered = await metaError(client, 'get_tool_schema', { server: 'sink', tool: 'hidden_by_filter' });
      t.equal(filtered, unknown.replaceAll('no_such_tool', 'hidden_by_filter'), 'a filtered tool gets the unknown-tool answer');
      t.match(await metaError(client, 'get_tool_schema', { server: 'solo', tool: 'list_colours' }), `${hub.settings.baseUrl}/solo/mcp`);
      t.match(await metaError(client, 'get_tool_schema', { server: 'nobody', tool: 'x' }), /^Unknown server/);
    });

    t.test('call_tool returns the child result unchanged', async (t) => {
      const colours = await callMeta(client, 'call_tool', { server: 'sink', tool: 'list_colours' });
      t.same(colours.content, [{ type: 'text', text: '["red","green"]' }]);
      t.same(colours.structuredContent, revision === '2025-11-25' ? { result: ['red', 'green'] } : ['red', 'green'], 'wrapped on 2025-11-25 only');
      const wrapped = await callMeta(client, 'call_tool', { server: 'sink', tool: 'wrapped_colours', arguments: {} });
      t.same(wrapped.structuredContent, { result: ['blue'] }, "a child's own wrap is left alone");
      const failing = await callMeta(client, 'call_tool', { server: 'annotated', tool: 'fails' });
      t.same(failing.content, [{ type: 'text', text: 'nope' }], "the child's tool error passes through");
      t.equal(failing.isError, true);

      const progress: number[] = [];
      const slow = await client.callTool(
        { name: 'call_tool', arguments: { server: 'sink', tool: 'slow_with_progress', arguments: { steps: 2 } } },
        { onprogress: (update) => progress.push(update.progress) },
      );
      t.same(slow.content, [{ type: 'text', text: 'done after 2 steps' }]);
      t.same(progress, [1, 2], 'progress is forwarded');
    });

    t.test('call_tool refusals are tool errors', async (t) => {
      const unknown = await metaError(client, 'call_tool', { server: 'sink', tool: 'no_such_tool' });
      t.equal(unknown, 'Unknown tool: "no_such_tool" on server "sink". Call list_tools with server "sink" for its tools.');
      t.equal(await metaError(client, 'call_tool', { server: 'sink', tool: 'hidden_by_filter' }), unknown.replaceAll('no_such_tool', 'hidden_by_filter'));
      t.equal(
        await metaError(client, 'call_tool', { server: 'solo', tool: 'list_colours' }),
        `Server "solo" is not offered through /hub (hub: false). Use its own endpoint: ${hub.settings.baseUrl}/solo/mcp`,
      );
      t.match(await metaError(client, 'call_tool', { server: 'nobody', tool: 'x' }), /^Unknown server: "nobody"/);
      t.match(await metaError(client, 'call_tool', { tool: 'x' }), /^Invalid arguments for call_tool/, 'arguments are checked against the input schema');
    });

    t.test('wake_server and sleep_server refuse always-running servers', async (t) => {
      t.equal(await metaError(client, 'wake_server', { server: 'sink' }), 'Cannot wake server "sink": it is always running');
      t.equal(await metaError(client, 'sleep_server', { server: 'sink' }), 'Cannot put server "sink" to sleep: it is always running');
      t.match(await metaError(client, 'sleep_server', { server: 'solo' }), /is always running$/);
      t.match(await metaError(client, 'wake_server', { server: 'nobody' }), /^Unknown server/);
      t.match(await metaError(client, 'sleep_server', { server: 'nobody' }), /^Unknown server/);
      t.equal(hub.children.get('sink')?.status, 'up', 'nothing changed');
    });
  });
}
