import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import t from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { startHub } from '../../../core/server.js';
import { adminBeside } from '../../helpers/admin.js';
import { cliPath } from '../../helpers/cli.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { freePort } from '../../helpers/net.js';
import { PASSWORD } from '../oauth-as/flows.js';
import { structuredMeta } from '../meta-tools/helpers.js';
import { runProgram, textOf, type RunAnswer } from './helpers.js';

const child = () => ({ command: process.execPath, args: [fixture('changing-tools')] });

t.test("a limited token's program reaches only its servers, even by a name built at run time", async (t) => {
  // The standalone hub (what the hub bin runs, oauth-as on) in this process, and
  // hub-admin's mint beside it: the subject is what the token reaches, not either process.
  const folder = await mkdtemp(join(tmpdir(), 'code-reach-'));
  t.teardown(() => rm(folder, { recursive: true, force: true }));
  const config = join(folder, 'mcp.json');
  await writeFile(config, JSON.stringify({ mcpServers: { alpha: child(), beta: child() }, plugins: { 'map-tools': false, 'code-mode': true } }));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { HOST: '127.0.0.1', PORT: String(port), BASE_URL: url, HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), HUB_PASSWORD: PASSWORD, LOG_LEVEL: 'silent' };
  const started = await startHub(env);
  t.teardown(() => started.close());
  const minted = await adminBeside(env)('tokens', 'mint', '--resource', 'hub', '--servers', 'alpha');
  t.equal(minted.code, 0, minted.stderr);
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/hub`, revision, { authorization: `Bearer ${minted.stdout.trim()}` });
    const api = textOf(await client.callTool({ name: 'get_code_api', arguments: {} }));
    t.match(api, 'declare namespace alpha {', `${revision}: the API has its server`);
    t.notMatch(api, 'beta', `${revision}: and no other`);
    t.match(textOf(await client.callTool({ name: 'get_code_api', arguments: { servers: ['beta'] } })), /^Unknown server: "beta"/, `${revision}: naming another is as naming none`);
    const answer = (await structuredMeta(t, client, 'run_code', {
      code: "const name = ['be', 'ta'].join('');\nconst mine = await servers.alpha.echo();\nreturn { servers: Object.keys(servers), mine, other: name in servers };",
    })) as unknown as RunAnswer;
    t.same(answer.value, { servers: ['alpha'], mine: 'ok', other: false }, `${revision}: servers holds only alpha`);
    const reached = await runProgram(client, "const name = ['be', 'ta'].join('');\nreturn await (servers as any)[name].echo();");
    t.equal(
      textOf(reached),
      'The program failed: ReferenceError: Unknown server: "beta". The servers you can reach: "alpha". (line 2)',
      `${revision}: a built name reaches nothing, and is told only of the servers it can reach`,
    );
    const viaProxy = await runProgram(client, "return await (servers.alpha as any)['../beta'].call();");
    t.match(textOf(viaProxy), /^The program failed: ToolError: Unknown tool: "\.\.\/beta" on server "alpha"/, `${revision}: nor a tool name that looks like a path`);
  }
});

for (const revision of REVISIONS) {
  t.test(`code mode over hub-stdio on ${revision}`, async (t) => {
    const folder = await mkdtemp(join(tmpdir(), 'code-stdio-'));
    const config = join(folder, 'mcp.json');
    await writeFile(config, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false, 'code-mode': { maxToolCalls: 2 } }, mcpServers: { one: child(), two: child() } }));
    const client = new Client({ name: 'code-stdio', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath('hub-stdio')],
        env: { HUB_CONFIG: config, DATA_PATH: join(folder, 'data'), BASE_URL: 'https://hub.example', PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    t.teardown(() => client.close());
    const { tools } = await client.listTools();
    t.same(tools.map((tool) => tool.name).slice(-2), ['get_code_api', 'run_code']);
    const answer = (await structuredMeta(t, client, 'run_code', {
      code: 'const [a, b] = await Promise.all([servers.one.echo(), servers.two.echo()]);\nconsole.log(a + b);\nreturn a === b;',
    })) as unknown as RunAnswer;
    t.same(
      { output: answer.output, value: answer.value, calls: answer.calls.map((call) => `${call.server}.${call.tool}:${call.outcome}`) },
      { output: 'okok\n', value: true, calls: ['one.echo:ok', 'two.echo:ok'] },
    );
    t.match(textOf(await runProgram(client, 'for (;;) await servers.one.echo();')), /maxToolCalls: 2/, 'its limits hold there too');
    t.match(textOf(await client.callTool({ name: 'get_code_api', arguments: {} })), 'declare namespace two {');
  });
}
