import { createRequire } from 'node:module';
import t from 'tap';
import { createOrders, createPeople } from '../../fixtures/servers/directory.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { runProgram, textOf, type RunAnswer } from './helpers.js';

// An API a model can afford and errors it can act on (issue 53): get_code_api declares
// only the tools asked for, and each mistake an agent makes in a program (a mistyped
// server or tool, a missing await, a value that is not JSON, a thrown value whose message
// cannot be read) ends with a message that says what to do.

const require = createRequire(import.meta.url);
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

async function codeHub(t: Parameters<typeof startTestHub>[0]) {
  const started = await startTestHub(t, {
    kernel: (hub) => {
      hub.children.addInProcess('people', createPeople);
      hub.children.addInProcess('orders-db', createOrders);
    },
    config: { mcpServers: { everything }, plugins: { 'map-tools': false, 'code-mode': { timeoutMs: 60_000 } } },
  });
  await Promise.all(['everything', 'people', 'orders-db'].map((name) => started.hub.children.get(name)!.ensureUp()));
  return started;
}

t.test('get_code_api declares the tools asked for alone', async (t) => {
  const { url } = await codeHub(t);
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision);
    const api = async (args: Record<string, unknown>) => await client.callTool({ name: 'get_code_api', arguments: args });
    const echo = textOf(await api({ tools: ['everything/echo'] }));
    t.match(echo, /echo\(args: everything\.EchoInput\): Promise<everything\.EchoOutput>;/, `${revision}: echo is declared`);
    t.equal(echo.match(/export type /g)?.length, 2, `${revision}: with its two types alone`);
    t.equal(echo.match(/\(args\??: /g)?.length, 1, `${revision}: and no other tool`);
    t.notMatch(echo, /declare namespace (people|orders_db)/, `${revision}: and no other server`);
    const whole = textOf(await api({}));
    t.ok(echo.length * 5 < whole.length, `${revision}: a fraction of the whole API (${echo.length} of ${whole.length} characters)`);

    const mixed = textOf(await api({ servers: ['people'], tools: ['everything/echo', 'orders-db/orders-for'] }));
    t.match(mixed, /list_people\(/, `${revision}: a server asked for whole...`);
    t.match(mixed, /echo\(/, `${revision}: ...and tools of others`);
    t.match(mixed, /"orders-for"\(/);
    t.equal(mixed.match(/\(args\??: /g)?.length, 3, `${revision}: three tools in all`);

    const typo = await api({ tools: ['everything/ecoh'] });
    t.equal(typo.isError, true);
    t.match(textOf(typo), /^Unknown tool: "ecoh" on server "everything"\. Did you mean "echo"\? Its tools: .*"echo"/, `${revision}: an unknown tool names the close ones and the server's tools`);
    const server = await api({ tools: ['evrything/echo'] });
    t.equal(
      textOf(server),
      'Unknown server: "evrything". Did you mean "everything"? The servers you can reach: "people", "orders-db", "everything".',
      `${revision}: an unknown server names the close ones and the servers`,
    );
    t.match(textOf(await api({ tools: ['echo'] })), /^"echo" is not a tool name as get_code_api takes it: "server\/tool"/, `${revision}: a name without its server says how to write it`);
  }
});

t.test('a program that makes a mistake is told what it is', async (t) => {
  const { url } = await codeHub(t);
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  const failed = async (code: string) => {
    const result = await runProgram(client, code);
    t.equal(result.isError, true, `a tool error: ${code}`);
    return textOf(result);
  };
  t.equal(
    await failed('const { people } = await servers.peple.list_people();\nreturn people;'),
    'The program failed: ReferenceError: Unknown server: "peple". Did you mean "people"? The servers you can reach: "people", "orders-db", "everything". (line 1)',
    'an unknown server names the close ones and the servers',
  );
  t.match(
    await failed('return await servers.people.list_peple();'),
    /^The program failed: ToolError: Unknown tool: "list_peple" on server "people"\. Did you mean "list_people"\? Its tools: "list_people"\./,
    "an unknown tool names the close ones and the server's tools",
  );
  t.equal(
    await failed("const found = servers.people.list_people({ city: 'London' });\nreturn found.people.length;"),
    'The program failed: TypeError: "people" was read from the promise servers.people.list_people() returns, not from its result: an await is probably missing (await servers.people.list_people(...)). (line 2)',
    'a field read from a promise says that an await is probably missing',
  );
  const awaited = (await runProgram(client, "const calls = [servers.people.list_people({ city: 'London' })];\nconst [found] = await Promise.all(calls);\nreturn found.people.length;"))
    .structuredContent as RunAnswer;
  t.equal(awaited.value, 2, 'the promise still works with await and Promise.all');

  for (const [what, code, kind] of [
    ['a function', 'return (x: number) => x + 1;', 'function'],
    ['a symbol', "return Symbol('s');", 'symbol'],
  ] as const) {
    const result = await runProgram(client, `console.log('before');\n${code}`);
    t.notOk(result.isError, `${what}: the run ends well`);
    t.same(
      result.structuredContent,
      { output: 'before\n', calls: [], note: `The returned value (a ${kind}) is not JSON and was dropped: return an object, array, string, number, boolean or null.` },
      `${what}: the answer says the value was dropped`,
    );
  }

  const unreadable = 'The program failed: Error: the program threw a value whose message could not be read (its message or toString threw or ran too long).';
  t.equal(await failed("throw { toString() { throw new Error('no'); } };"), unreadable, 'a thrown value whose toString throws');
  t.equal(await failed('throw { toString() { for (;;) {} } };'), unreadable, 'a thrown value whose toString loops');
  t.equal(await failed("const error = new Error('x');\nObject.defineProperty(error, 'message', { get() { for (;;) {} } });\nthrow error;"), unreadable, 'an error whose message getter loops');
  t.equal(await failed('throw null;'), 'The program failed: Error: the program threw null', 'a thrown null');
  t.equal(((await runProgram(client, 'return 1;')).structuredContent as RunAnswer).value, 1, 'the hub goes on');
});
