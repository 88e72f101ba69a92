import t, { type Test } from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { startHttpSink } from '../../fixtures/servers/http-sink.js';
import { structuredMeta } from '../meta-tools/helpers.js';
import { everythingEntry, firstText, until } from './helpers.js';

// Issue 35 (38 here): a virtual server draws tools from an http server (the kitchen sink
// on loopback) and a stdio one (server-everything), renamed, prefixed and described anew.

async function kitHub(t: Test, logs?: string[]) {
  const sink = await startHttpSink(t);
  const started = await startTestHub(t, {
    ...(logs && { logs }),
    config: {
      mcpServers: {
        sink: { type: 'http', url: sink.url },
        everything: everythingEntry(),
        kit: {
          type: 'virtual',
          tools: [
            { server: 'sink', tool: 'list_colours', name: 'colours', description: 'Our colours' },
            { server: 'everything', tool: 'get-sum' },
            { server: 'sink', tool: '*', prefix: 'sink_' },
          ],
        },
      },
    },
  });
  // The http server's first start changes what the hub knows of it; the kit follows.
  await started.hub.children.get('sink')?.ensureUp();
  await until(() => started.hub.children.get('kit')?.findTool('colours') !== undefined);
  return { ...started, sink };
}

t.test('a sleeping underlying server stays asleep through listings; a call wakes only it', async (t) => {
  const { url, hub, sink } = await kitHub(t);
  const everything = hub.children.get('everything');
  // Never seen: its tools are not known, so the tool the kit names is listed from the entry (issue 55.3), and listing does not wake it.
  const first = await connectClient(t, `${url}/kit/mcp`, '2026-07-28');
  const beforeTools = (await first.listTools()).tools;
  const before = beforeTools.map((tool) => tool.name);
  t.match(beforeTools.find((tool) => tool.name === 'get-sum')?.description, /has not run yet/, 'a tool the entry names of a server never seen is listed from the entry');
  t.ok(before.includes('colours') && before.includes('sink_list_colours'), "the http server's tools are listed");
  t.equal(everything?.status, 'sleeping', 'listing did not wake the server never seen');

  // Once seen and put back to sleep, the kit lists its tool from what the hub knows.
  await everything?.ensureUp();
  await everything?.disconnect('sleeping');
  t.equal(everything?.status, 'sleeping');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const { tools } = await client.listTools();
    const sum = tools.find((tool) => tool.name === 'get-sum');
    t.equal(sum?.description, 'Returns the sum of two numbers', `${revision}: listed from the snapshot, its own description kept`);
    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const listed = await structuredMeta(t, hubClient, 'list_tools', { server: 'kit' });
    t.ok(
      (listed.tools as Array<{ name: string }>).some((tool) => tool.name === 'get-sum'),
      `${revision}: /hub list_tools too`,
    );
    const schema = await structuredMeta(t, hubClient, 'get_tool_schema', { server: 'kit', tool: 'get-sum' });
    t.match(schema.inputSchema, { properties: { a: { type: 'number' }, b: { type: 'number' } } }, `${revision}: get_tool_schema gives the underlying schema`);
    const servers = await structuredMeta(t, hubClient, 'list_servers');
    t.match(
      (servers.servers as Array<{ name: string }>).find((server) => server.name === 'kit'),
      { status: 'up', toolCount: tools.length },
      `${revision}: list_servers`,
    );
    t.equal(everything?.status, 'sleeping', `${revision}: still asleep after listing on /kit/mcp and /hub`);
  }

  const client = await connectClient(t, `${url}/kit/mcp`, '2025-11-25');
  const sum = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 40 } });
  t.match(firstText(sum), /42/, 'the call reached server-everything');
  t.equal(everything?.status, 'up', 'the call woke the server it went to');
  t.equal(sink.calls.length, 0, 'and nothing else');
});

t.test('renamed, described anew, schemas kept; calls on both revisions, on /kit/mcp and through /hub', async (t) => {
  const { url, hub, sink } = await kitHub(t);
  for (const revision of REVISIONS) {
    const own = await connectClient(t, `${url}/sink/mcp`, revision);
    const underlying = (await own.listTools()).tools.find((tool) => tool.name === 'list_colours');
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const { tools } = await client.listTools();
    const colours = tools.find((tool) => tool.name === 'colours');
    t.equal(colours?.description, 'Our colours', `${revision}: the description replaced`);
    t.same(colours?.outputSchema, underlying?.outputSchema, `${revision}: the output schema is the underlying tool's`);
    t.same(colours?.inputSchema, underlying?.inputSchema, `${revision}: the input schema too`);
    t.notOk(
      tools.some((tool) => tool.name === 'list_colours'),
      `${revision}: only the new names`,
    );
    t.equal(tools.filter((tool) => tool.name.startsWith('sink_')).length, hub.children.get('sink')?.tools.length, `${revision}: "*" with a prefix takes every tool`);

    const before = sink.calls.length;
    const result = await client.callTool({ name: 'colours', arguments: {} });
    t.same(result.structuredContent, revision === '2026-07-28' ? ['red', 'green'] : { result: ['red', 'green'] }, `${revision}: the underlying result, as the revision presents it`);
    t.equal(sink.calls.length, before + 1);
    t.equal(sink.calls.at(-1)?.name, 'list_colours', `${revision}: the underlying server got its own tool name`);

    const hubClient = await connectClient(t, `${url}/hub`, revision);
    const viaHub = await hubClient.callTool({ name: 'call_tool', arguments: { server: 'kit', tool: 'sink_wrapped_colours', arguments: {} } });
    t.notOk(viaHub.isError, `${revision}: call_tool on the kit`);
    t.equal(sink.calls.at(-1)?.name, 'wrapped_colours', `${revision}: through /hub too`);

    const unknown = await client.callTool({ name: 'list_colours', arguments: {} }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    t.match(unknown instanceof Error ? unknown.message : firstText(unknown), /list_colours/, `${revision}: the underlying name is not a tool of the kit`);
  }
});

t.test('the access record names the virtual server and the underlying one', async (t) => {
  const logs: string[] = [];
  const { url } = await kitHub(t, logs);
  const client = await connectClient(t, `${url}/kit/mcp`, '2025-11-25');
  await client.callTool({ name: 'colours', arguments: {} });
  const records = () => logs.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.rpc === 'tools/call');
  await client.close();
  t.ok(await until(() => records().length > 0), 'the record is written');
  t.match(records()[0], { endpoint: 'kit', server: 'sink', tool: 'list_colours', virtualServer: 'kit', virtualTool: 'colours' });
});

t.test("progress of the underlying tool reaches the kit's caller", async (t) => {
  const { url } = await kitHub(t);
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'sink_slow_with_progress', arguments: { steps: 2 } }, { onprogress: (update) => void progress.push(update.progress) });
    t.equal(firstText(result), 'done after 2 steps', `${revision}: the result`);
    t.same(progress, [1, 2], `${revision}: both progress notifications`);
  }
});

t.test('issue 55.4: a renamed tool or prompt takes the title its entry gives, else none; one not renamed keeps its own', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        everything: everythingEntry(),
        kit: {
          type: 'virtual',
          tools: [
            { server: 'everything', tool: 'get-sum', name: 'add' },
            { server: 'everything', tool: 'get-sum', name: 'plus', title: 'Plus' },
            { server: 'everything', tool: 'get-sum' },
          ],
          prompts: [
            { server: 'everything', prompt: 'simple-prompt', name: 'plain' },
            { server: 'everything', prompt: 'simple-prompt', name: 'greeting', title: 'Greeting' },
            { server: 'everything', prompt: 'simple-prompt' },
          ],
        },
      },
    },
  });
  await hub.children.get('everything')?.ensureUp();
  await until(() => hub.children.get('kit')?.findTool('add') !== undefined);
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    t.equal(tools.get('get-sum')?.title, 'Get Sum Tool', `${revision}: a tool not renamed keeps its title`);
    t.notOk('title' in (tools.get('add') ?? {}), `${revision}: a renamed tool without a title of its entry has none (not the old one)`);
    t.equal(tools.get('add')?.annotations?.title, undefined, `${revision}: nor an annotated one`);
    t.equal(tools.get('plus')?.title, 'Plus', `${revision}: the entry's title`);
    const prompts = new Map((await client.listPrompts()).prompts.map((prompt) => [prompt.name, prompt]));
    t.equal(prompts.get('simple-prompt')?.title, 'Simple Prompt', `${revision}: a prompt not renamed keeps its title`);
    t.notOk('title' in (prompts.get('plain') ?? {}), `${revision}: a renamed prompt without a title of its entry has none`);
    t.equal(prompts.get('greeting')?.title, 'Greeting', `${revision}: the entry's title for a prompt`);
  }
});

t.test('issue 55.4: "title" with "*" is refused, naming the entry', async (t) => {
  await t.rejects(
    startTestHub(t, { config: { mcpServers: { everything: everythingEntry(), kit: { type: 'virtual', tools: [{ server: 'everything', tool: '*', title: 'All' }] } } } }),
    /tools\[0\]: "title" titles one tool, not "\*"/,
    'the config is refused with the reason',
  );
});
