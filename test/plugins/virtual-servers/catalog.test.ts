import { join } from 'node:path';
import t, { type Test } from 'tap';
import { describeDraws } from '../../../plugins/virtual-servers/check.js';
import { fixtureEntry, tempDir } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { startHttpSink } from '../../fixtures/servers/http-sink.js';
import { until } from './helpers.js';

// Issue 35 (38 here): a kit's optional `prompts` and `resources` selections, in the form
// of `tools`: listed from the servers drawn on without waking one, got and read from the
// server each comes from, on both revisions.

const KIT = {
  type: 'virtual',
  tools: [{ server: 'sink', tool: 'list_colours' }],
  prompts: [
    { server: 'sink', prompt: 'greet', name: 'hello', description: 'Say hello' },
    { server: 'changing', prompt: '*', prefix: 'c_' },
  ],
  resources: [
    { server: 'sink', resource: 'memo://readme', name: 'readme_doc', description: 'What to read first' },
    { server: 'changing', resource: '*', prefix: 'c_' },
  ],
};

async function catalogHub(t: Test) {
  const sink = await startHttpSink(t);
  const directory = await tempDir(t);
  const started = await startTestHub(t, {
    config: { mcpServers: { sink: { type: 'http', url: sink.url }, changing: fixtureEntry('changing-tools', join(directory, 'changing')), kit: KIT }, plugins: { 'map-tools': false } },
  });
  await started.hub.children.get('sink')?.ensureUp();
  t.ok(await until(() => started.hub.children.get('kit')?.findTool('list_colours') !== undefined), 'the kit is up with its tool');
  return started;
}

const texts = (messages: Array<{ content: unknown }>) => messages.map((message) => (message.content as { text?: string }).text);

t.test('prompts and resources: listed without waking, renamed and described anew, got and read from their server', async (t) => {
  const { url, hub } = await catalogHub(t);
  const changing = hub.children.get('changing');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    const { prompts } = await client.listPrompts();
    t.same(
      prompts.map((prompt) => prompt.name),
      ['hello'],
      `${revision}: a server never up lists nothing, and is not woken for it`,
    );
    t.match(prompts[0], { description: 'Say hello', arguments: [{ name: 'name', required: true }] }, `${revision}: described anew, the arguments kept`);
    const { resources } = await client.listResources();
    t.same(
      resources.map((resource) => [resource.uri, resource.name, resource.description]),
      [['memo://readme', 'readme_doc', 'What to read first']],
      `${revision}: the resource by its URI, under its new name`,
    );
    t.equal(changing?.status, 'sleeping', `${revision}: still asleep after listing`);

    const got = await client.getPrompt({ name: 'hello', arguments: { name: 'Ada' } });
    t.same(texts(got.messages), ['Hello, Ada'], `${revision}: the prompt got from the sink`);
    t.equal(got.description, 'Say hello', `${revision}: with the description given`);
    const read = await client.readResource({ uri: 'memo://readme' });
    t.match(read.contents, [{ uri: 'memo://readme', text: 'hello from a resource' }], `${revision}: the resource read from the sink`);
    t.equal(changing?.status, 'sleeping', `${revision}: getting and reading woke only the sink`);

    const missing = await client.getPrompt({ name: 'greet' }).catch((error: unknown) => error);
    t.match(missing instanceof Error ? missing.message : '', /Prompt greet not found/, `${revision}: the underlying name is not a prompt of the kit`);
    const unread = await client.readResource({ uri: 'memo://notes/alpha' }).catch((error: unknown) => error);
    t.match(unread instanceof Error ? unread.message : '', /Resource not found: memo:\/\/notes\/alpha/, `${revision}: a URI the kit does not offer is not read`);
  }

  // Once up, the stdio server's prompts and resources are listed, and remembered once it sleeps again.
  await changing?.ensureUp();
  const awake = await connectClient(t, `${url}/kit/mcp`, '2026-07-28');
  t.ok(
    (await awake.listPrompts()).prompts.some((prompt) => prompt.name === 'c_prompt_0'),
    'listed with its prefix while the server is up',
  );
  await changing?.disconnect('sleeping');
  t.equal(changing?.status, 'sleeping');
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    t.same((await client.listPrompts()).prompts.map((prompt) => prompt.name).sort(), ['c_prompt_0', 'hello'], `${revision}: a sleeping server's prompts from what it said last`);
    const resources = (await client.listResources()).resources.map((resource) => [resource.uri, resource.name]);
    t.same(
      resources.sort(),
      [
        ['memo://counter', 'c_memo://counter'],
        ['memo://other', 'c_memo://other'],
        ['memo://readme', 'readme_doc'],
      ],
      `${revision}: and its resources, names prefixed, URIs kept`,
    );
    t.equal(changing?.status, 'sleeping', `${revision}: listing did not wake it`);
  }
  const client = await connectClient(t, `${url}/kit/mcp`, '2025-11-25');
  const got = await client.getPrompt({ name: 'c_prompt_0' });
  t.same(texts(got.messages), ['prompt_0'], 'a prompt drawn by "*" is got from its server');
  t.equal(changing?.status, 'up', 'which that woke');
  const read = await client.readResource({ uri: 'memo://counter' });
  t.match(read.contents, [{ uri: 'memo://counter', text: '0' }], 'a resource drawn by "*" is read from its server');
});

t.test('start-up errors name the virtual server and the prompt or resource entry; hub check says what it draws', async (t) => {
  const directory = await tempDir(t);
  const changing = fixtureEntry('changing-tools', join(directory, 'changing'));
  const base = { type: 'virtual', tools: [{ server: 'alpha', tool: 'echo' }] };
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['an unknown server', { prompts: [{ server: 'nowhere', prompt: 'p' }] }, /server "kit": prompts\[0\]: unknown server "nowhere"/],
    ['itself', { resources: [{ server: 'kit', resource: '*' }] }, /server "kit": resources\[0\]: a virtual server cannot draw on itself/],
    [
      'two prompts ending with one name',
      {
        prompts: [
          { server: 'alpha', prompt: 'a', name: 'p' },
          { server: 'alpha', prompt: 'p' },
        ],
      },
      /server "kit": prompts\[1\]: two prompts would be named "p" \(prompts\[0\] and prompts\[1\]\)/,
    ],
    [
      'one URI twice',
      {
        resources: [
          { server: 'alpha', resource: 'memo://x' },
          { server: 'beta', resource: 'memo://x' },
        ],
      },
      /server "kit": resources\[1\]: two entries select the URI "memo:\/\/x" \(resources\[0\] and resources\[1\]\)/,
    ],
    ['a name for "*"', { prompts: [{ server: 'alpha', prompt: '*', name: 'all' }] }, /server "kit": prompts\[0\]: "name" renames one prompt; for "prompt": "\*" use "prefix"/],
    ['a misspelt key', { resources: [{ server: 'alpha', uri: 'memo://x' }] }, /server "kit": key "resources\[0\]/],
  ];
  for (const [what, extra, message] of cases) {
    await t.rejects(startTestHub(t, { config: { mcpServers: { alpha: changing, beta: changing, kit: { ...base, ...extra } } } }), { message }, what);
  }
  await t.rejects(
    startTestHub(t, { config: { mcpServers: { alpha: changing, one: { ...base, prompts: [{ server: 'two', prompt: '*' }] }, two: { ...base, resources: [{ server: 'one', resource: '*' }] } } } }),
    { message: /virtual servers draw on one another in a circle: one -> two -> one/ },
    'a circle through prompts and resources',
  );
  t.equal(describeDraws(KIT as never), 'draws on sink (list_colours, prompt greet as hello, resource memo://readme), changing (prompt * as c_*, resource * as c_*)');
});
