import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { metaError, structuredMeta } from '../meta-tools/helpers.js';
import { runProgram, startCodeHub, textOf, type RunAnswer } from './helpers.js';

const JOIN = `
type Person = { id: number; name: string; city: string };
const { people } = (await servers.people.list_people({ city: 'London' })) as { people: Person[] };
const rows: string[] = [];
for (const person of people) {
  const orders = (await servers['orders-db']['orders-for']({ personId: person.id })) as string;
  const items = orders === '' ? [] : orders.split('\\n');
  console.log(person.name, items.length);
  if (items.length > 0) rows.push(\`\${person.name}: \${items.join(', ')}\`);
}
return { rows, londoners: people.length };
`;

for (const revision of REVISIONS) {
  t.test(`code mode on /hub on ${revision}`, async (t) => {
    const { url } = await startCodeHub(t);
    const client = await connectClient(t, `${url}/hub`, revision);

    t.test('two tools beyond the six', async (t) => {
      const { tools } = await client.listTools();
      t.same(tools.map((tool) => tool.name).slice(-2), ['get_code_api', 'run_code']);
      t.equal(tools.length, 8);
      t.equal(tools.find((tool) => tool.name === 'run_code')?.inputSchema.required?.[0], 'code');
    });

    t.test('get_code_api: a namespace per server, doc comments, output types, the same text twice', async (t) => {
      const first = textOf(await client.callTool({ name: 'get_code_api', arguments: {} }));
      const second = textOf(await client.callTool({ name: 'get_code_api', arguments: {} }));
      t.equal(first, second, 'deterministic');
      t.match(first, 'declare namespace people {');
      t.match(first, 'declare namespace orders_db {');
      t.match(first, '    "orders-for"(args: orders_db.OrdersForInput): Promise<orders_db.OrdersForOutput>;');
      t.match(first, 'export type OrdersForOutput = string;', 'a tool without an output schema gives its text');
      t.match(first, '    list_people(args?: people.ListPeopleInput): Promise<people.ListPeopleOutput>;', 'no required argument: args optional');
      t.match(first, '/** Only people in this city */', 'property descriptions become doc comments');
      t.match(first, '     * Everyone on the staff.\n     * With their city.', 'multi-line descriptions too');
      t.match(first, 'not the end of a comment', 'a description with */ ...');
      t.notMatch(first, '*/ not the end', '... cannot close its comment early');
      const only = textOf(await client.callTool({ name: 'get_code_api', arguments: { servers: ['people'] } }));
      t.notMatch(only, 'orders_db', 'servers narrows the API');
      t.match(await metaError(client, 'get_code_api', { servers: ['nope'] }), /^Unknown server: "nope"/);
    });

    t.test('a program calls two servers, filters and joins', async (t) => {
      const answer = (await structuredMeta(t, client, 'run_code', { code: JOIN })) as unknown as RunAnswer;
      t.same(answer.value, { rows: ['Ada: tea, scones'], londoners: 2 });
      t.equal(answer.output, 'Ada 2\nAlan 0\n');
      t.same(
        answer.calls.map(({ server, tool, outcome }) => ({ server, tool, outcome })),
        [
          { server: 'people', tool: 'list_people', outcome: 'ok' },
          { server: 'orders-db', tool: 'orders-for', outcome: 'ok' },
          { server: 'orders-db', tool: 'orders-for', outcome: 'ok' },
        ],
      );
      t.ok(
        answer.calls.every((call) => typeof call.durationMs === 'number' && call.durationMs >= 0),
        'each call has its duration',
      );
    });

    t.test('calls run concurrently with Promise.all; a non-object output schema gives the structured value', async (t) => {
      const answer = (await structuredMeta(t, client, 'run_code', {
        code: 'const [a, b] = await Promise.all([servers.sink.list_colours(), servers.sink.wrapped_colours()]); return { a, b };',
      })) as unknown as RunAnswer;
      // On 2025-11-25 a non-object output schema is delivered wrapped under `result`, as call_tool delivers it.
      t.same(answer.value, { a: revision === '2025-11-25' ? { result: ['red', 'green'] } : ['red', 'green'], b: { result: ['blue'] } });
    });

    t.test('a tool error rejects with its text; caught, the program goes on', async (t) => {
      const caught = (await structuredMeta(t, client, 'run_code', {
        code: "try { await servers['orders-db'].refuse({}); } catch (error) { return (error as Error).message; }",
      })) as unknown as RunAnswer;
      t.equal(caught.value, 'the orders database is read-only today');
      t.equal(caught.calls[0]?.outcome, 'tool_error');
      const uncaught = await runProgram(client, "console.log('before');\nawait servers['orders-db'].refuse();");
      t.equal(uncaught.isError, true);
      t.equal(textOf(uncaught), 'The program failed: ToolError: the orders database is read-only today (line 2)\nPrinted before it ended:\nbefore\n');
    });

    t.test('an unknown tool or server, and a thrown error, name their line', async (t) => {
      t.equal(textOf(await runProgram(client, '\nawait servers.people.nope();')), 'The program failed: ToolError: Unknown tool: "nope" on server "people". Its tools: "list_people". (line 2)');
      t.match(
        textOf(await runProgram(client, 'const x = 1;\n\nawait servers.nobody.tool();')),
        /^The program failed: ReferenceError: Unknown server: "nobody"\. The servers you can reach: .*\(line 3\)$/,
      );
      t.equal(textOf(await runProgram(client, 'const n: number = 1;\nif (n) throw new RangeError("too far");')), 'The program failed: RangeError: too far (line 2)');
      t.match(textOf(await runProgram(client, 'let = = 1')), /^The program did not run: SyntaxError: .*\(line 1\)$/);
      t.equal(
        textOf(await runProgram(client, 'return () => 1')),
        JSON.stringify({ output: '', calls: [], note: 'The returned value (a function) is not JSON and was dropped: return an object, array, string, number, boolean or null.' }),
        'a value that is not JSON is left out, and the answer says so',
      );
    });

    t.test('nothing of the host is reachable: no Node, no timers, no fetch, no way out through prototypes or the bridge', async (t) => {
      const probe = `
const found: Record<string, string> = {};
const attempt = (name: string, f: () => unknown) => { try { found[name] = typeof f(); } catch (error) { found[name] = 'throws ' + (error as Error).name; } };
attempt('process', () => (globalThis as any).process);
attempt('require', () => (globalThis as any).require);
attempt('fetch', () => (globalThis as any).fetch);
attempt('setTimeout', () => (globalThis as any).setTimeout);
attempt('print', () => (globalThis as any).print);
attempt('call', () => (globalThis as any).call);
attempt('std', () => (globalThis as any).std);
attempt('os', () => (globalThis as any).os);
attempt('Function process', () => Function('return typeof process')() === 'undefined' ? undefined : 1);
attempt('constructor chain', () => (console.log as any).constructor.constructor('return this')().process);
attempt('tool constructor', () => (servers.people.list_people as any).constructor('return globalThis.process')());
attempt('proxy target', () => (Object.getPrototypeOf(servers.people) === null ? undefined : 'a prototype'));
attempt('import', () => eval('import("fs")'));
found.globals = Object.getOwnPropertyNames(globalThis).filter((name) => !/^[A-Z]/.test(name)).sort().join(',');
return found;`;
      const answer = (await structuredMeta(t, client, 'run_code', { code: probe })) as unknown as RunAnswer;
      const found = answer.value as Record<string, string>;
      for (const name of ['process', 'require', 'fetch', 'setTimeout', 'print', 'call', 'std', 'os', 'Function process', 'constructor chain', 'tool constructor']) {
        t.equal(found[name], 'undefined', `${name}: nothing there`);
      }
      t.equal(found['proxy target'], 'undefined', 'a server has no prototype to climb');
      t.equal(found.import, 'object', 'a dynamic import is only a promise...');
      t.same(answer.calls, [], '... and no tool was called');
      t.equal(
        found.globals,
        'console,decodeURI,decodeURIComponent,encodeURI,encodeURIComponent,escape,eval,globalThis,isFinite,isNaN,parseFloat,parseInt,servers,undefined,unescape',
        "the globals are the language's, console and servers",
      );
      const imported = await runProgram(client, 'await import("node:fs");');
      t.match(textOf(imported), /^The program failed: .*(could not load module|not supported|module)/i, 'and importing a module fails');
    });
  });
}
