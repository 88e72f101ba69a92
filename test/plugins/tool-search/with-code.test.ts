import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import t from 'tap';
import type { Hub } from '../../../core/hub.js';
import type { PluginHub } from '../../../core/plugin/index.js';
import { fixture } from '../../core/children/helpers.js';
import { createOrders, createPeople } from '../../fixtures/servers/directory.js';
import { createKitchenSink } from '../../fixtures/servers/kitchen-sink.js';
import { cliPath } from '../../helpers/cli.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { structuredMeta } from '../meta-tools/helpers.js';
import { textOf, type RunAnswer } from '../code-mode/helpers.js';
import { search, type SearchAnswer } from './helpers.js';

/*
 * Issue 53: search_tools with withCode gives each hit its code-mode declaration, one tool
 * at a time, through a service code mode provides on the plugin surface
 * (hub.toolDeclarations); neither plugin imports the other.
 *
 * | road                        | what is checked                                                         |
 * |-----------------------------|-------------------------------------------------------------------------|
 * | /hub, 2026-07-28            | each hit's declaration; types as get_code_api's; a program from it runs |
 * | /hub, 2025-11-25            | the same; a non-object output typed as that revision wraps it           |
 * | /hub, code mode off         | no declaration, a notice saying why; the search answers                 |
 * | /hub, a provider that throws| the hit without its declaration, the fault counted in its plugin's name  |
 * | hub-stdio, both revisions   | each hit's declaration; a program from it runs                          |
 */

const withCode = async (t: Parameters<typeof search>[0], client: Client, query: string, extra: Record<string, unknown> = {}): Promise<SearchAnswer> =>
  (await structuredMeta(t, client, 'search_tools', { query, withCode: true, ...extra })) as unknown as SearchAnswer;

/** The hit for `server/tool` in an answer. */
const hitOf = (answer: SearchAnswer, name: string) => answer.tools.find((tool) => `${tool.server}/${tool.tool}` === name);

/** What a program writes to call the tool a declaration declares: the text before its argument list. */
const callPath = (code: string) => /^(servers[^(]+)\(/m.exec(code)?.[1];

async function startSearchHub(t: Parameters<typeof startTestHub>[0], plugins: Record<string, unknown>, setup?: (hub: PluginHub) => void) {
  const started = await startTestHub(t, {
    kernel: (hub: Hub) => {
      hub.children.addInProcess('people', createPeople);
      hub.children.addInProcess('orders-db', createOrders);
      hub.children.addInProcess('sink', createKitchenSink);
    },
    config: { plugins: { 'map-tools': false, 'tool-search': true, ...plugins } },
    ...(setup && { setup }),
  });
  await Promise.all(['people', 'orders-db', 'sink'].map((name) => started.hub.children.get(name)!.ensureUp()));
  return started;
}

t.test('/hub: each hit carries its declaration, typed as get_code_api types it, and a program written from it runs', async (t) => {
  const { url } = await startSearchHub(t, { 'code-mode': true });
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    const people = await withCode(t, client, 'staff people in a city');
    const listPeople = hitOf(people, 'people/list_people');
    t.equal(
      listPeople?.code,
      '/**\n * Everyone on the staff.\n * With their city.\n */\nservers.people.list_people(args?: {\n  /** Only people in this city */\n  city?: string;\n}): Promise<{\n  people: {\n    id: number;\n    name: string;\n    city: string;\n  }[];\n}>;\n',
      `${revision}: the description as a doc comment, the call as a program writes it, its argument and result types inline`,
    );
    t.ok(
      people.tools.every((tool) => typeof tool.code === 'string' && tool.code.includes(`(args`)),
      `${revision}: every hit has one`,
    );

    // The same types get_code_api gives for that one tool (there as named types, one level in).
    const api = textOf(await client.callTool({ name: 'get_code_api', arguments: { tools: ['people/list_people'] } }));
    const indented = (type: string) => type.replaceAll('\n', '\n  ');
    const [, argsType, resultType] = /\(args\?: ([\s\S]*)\): Promise<([\s\S]*)>;\n$/.exec(listPeople?.code ?? '') ?? [];
    t.match(api, `export type ListPeopleInput = ${indented(argsType ?? '?')};`, `${revision}: the argument type is get_code_api's`);
    t.match(api, `export type ListPeopleOutput = ${indented(resultType ?? '?')};`, `${revision}: the result type is get_code_api's`);
    t.ok((listPeople?.code?.length ?? 0) < api.length / 2, `${revision}: and the declaration is far shorter than get_code_api's answer for the tool alone`);

    const orders = hitOf(await withCode(t, client, 'orders of a person'), 'orders-db/orders-for');
    t.equal(
      orders?.code,
      '/** The orders of one person, one per line. *\\/ not the end of a comment */\nservers["orders-db"]["orders-for"](args: {\n  personId: number;\n}): Promise<string>;\n',
      `${revision}: names that are not identifiers take brackets; a text result is a string; the comment cannot be closed by the description`,
    );
    const colours = hitOf(await withCode(t, client, 'colours as an array', { server: 'sink' }), 'sink/list_colours');
    t.match(colours?.code, revision === '2025-11-25' ? '): Promise<{\n  result: string[];\n}>;' : '): Promise<string[]>;', `${revision}: the result as the caller's revision delivers it`);

    // A program written from the declarations alone runs.
    const code = `const { people } = await ${callPath(listPeople?.code ?? '')}({ city: 'London' });\nreturn await Promise.all(people.map((person) => ${callPath(
      orders?.code ?? '',
    )}({ personId: person.id })));`;
    const answer = (await structuredMeta(t, client, 'run_code', { code })) as unknown as RunAnswer;
    t.same(answer.value, ['tea\nscones', ''], `${revision}: the calls the declarations name are the ones a program makes`);

    const plain = await search(t, client, 'staff people in a city');
    t.ok(plain.tools.length > 0 && plain.tools.every((tool) => !('code' in tool)), `${revision}: without withCode, no declarations`);
  }
});

t.test('/hub with code mode off: the search answers without declarations and says why', async (t) => {
  const { url } = await startSearchHub(t, {});
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    const answer = await withCode(t, client, 'staff people in a city');
    t.ok(hitOf(answer, 'people/list_people'), `${revision}: the tool is found`);
    t.ok(
      answer.tools.every((tool) => tool.code === undefined),
      `${revision}: with no declaration`,
    );
    t.equal(answer.notice, 'withCode: code mode is off on this hub (no run_code), so no declarations; call get_tool_schema and call_tool.', `${revision}: the notice says why`);
  }
});

t.test('a declarations provider that throws: the hit comes without its declaration, the fault is counted in its name', async (t) => {
  const { url, hub } = await startSearchHub(t, {}, (app) => {
    app.toolDeclarations.provide({
      declare: (server, tool) => {
        if (tool.name === 'list_people') throw new Error('the declaration broke');
        return `servers.${server.name}.${tool.name}();\n`;
      },
    });
  });
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  const answer = await withCode(t, client, 'staff people orders');
  t.equal(hitOf(answer, 'people/list_people')?.code, undefined, 'the failed declaration is left out');
  const others = answer.tools.filter((tool) => tool.tool !== 'list_people');
  t.ok(others.length > 0, 'other tools were found');
  t.same(
    others.map((tool) => tool.code),
    others.map((tool) => `servers.${tool.server}.${tool.tool}();\n`),
    'each other hit has its declaration',
  );
  const fault = hub.faults.list().find((entry) => entry.site === 'toolDeclarations.declare');
  t.equal(fault?.plugin, 'app', "counted in the provider's name");
  t.ok((fault?.count ?? 0) >= 1, 'counted');
});

for (const revision of REVISIONS) {
  t.test(`hub-stdio on ${revision}: each hit carries its declaration, and a program from it runs`, async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'search-code-stdio-'));
    const config = join(folder, 'mcp.json');
    const child = { command: process.execPath, args: [fixture('changing-tools')] };
    await writeFile(config, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false, 'code-mode': true, 'tool-search': true }, mcpServers: { one: child } }));
    const client = new Client({ name: 'search-code-stdio', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath('hub-stdio')],
        env: { HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), BASE_URL: 'https://hub.example', PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    t.teardown(() => client.close());
    await client.callTool({ name: 'list_tools', arguments: { server: 'one' } });
    const echo = hitOf(await withCode(t, client, 'echo'), 'one/echo');
    t.match(echo?.code, /^(\/\*\*[^\n]*\*\/\n)?servers\.one\.echo\(args\?: /, 'the call as a program writes it');
    const answer = (await structuredMeta(t, client, 'run_code', { code: `return await ${callPath(echo?.code ?? '')}();` })) as unknown as RunAnswer;
    t.same(answer.value, 'ok', 'a program written from it runs');
  });
}
