import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { fixture, tempDir, waitFor } from '../../core/children/helpers.js';
import { checkConfig, formatReport } from '../../../core/cli/check.js';
import { connectClient } from '../../helpers/clients.js';
import { startStandaloneHub, startTestHub } from '../../helpers/hub.js';

// Issue 35 (38 here): errors at start-up and reload name the virtual server and the entry;
// `hub check` reports what a virtual server draws on. In this process: the standalone hub,
// reloaded by rewriting the config file it watches, and `hub check`'s report as the CLI
// makes it; what is said of the virtual server is the subject, not a process.

const changing = () => ({ command: process.execPath, args: [fixture('changing-tools')] });

t.test('start-up errors name the virtual server and the entry', async (t) => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'an unknown server',
      {
        kit: {
          type: 'virtual',
          tools: [
            { server: 'alpha', tool: 'echo' },
            { server: 'nowhere', tool: 'echo' },
          ],
        },
      },
      /server "kit": tools\[1\]: unknown server "nowhere"/,
    ],
    [
      'a disabled server',
      { old: { ...changing(), disabled: true }, kit: { type: 'virtual', tools: [{ server: 'old', tool: 'echo' }] } },
      /server "kit": tools\[0\]: unknown server "old" \(not in the config, or disabled\)/,
    ],
    ['itself', { kit: { type: 'virtual', tools: [{ server: 'kit', tool: '*' }] } }, /server "kit": tools\[0\]: a virtual server cannot draw on itself/],
    [
      'a circle',
      {
        one: { type: 'virtual', tools: [{ server: 'two', tool: '*' }] },
        two: {
          type: 'virtual',
          tools: [
            { server: 'alpha', tool: 'echo' },
            { server: 'one', tool: '*' },
          ],
        },
      },
      /server "one": virtual servers draw on one another in a circle: one -> two -> one/,
    ],
    [
      'two tools ending with one name',
      {
        kit: {
          type: 'virtual',
          tools: [
            { server: 'alpha', tool: 'echo' },
            { server: 'beta', tool: 'mutable', name: 'echo' },
          ],
        },
      },
      /server "kit": tools\[1\]: two tools would be named "echo" \(tools\[0\] and tools\[1\]\)/,
    ],
    ['a name for "*"', { kit: { type: 'virtual', tools: [{ server: 'alpha', tool: '*', name: 'all' }] } }, /server "kit": tools\[0\]: "name" renames one tool; for "tool": "\*" use "prefix"/],
    ['a key of its own misspelt', { kit: { type: 'virtual', tools: [{ server: 'alpha', tool: 'echo', nmae: 'x' }] } }, /server "kit": key "tools\[0\]\.nmae"/],
  ];
  for (const [what, servers, message] of cases) {
    await t.rejects(startTestHub(t, { config: { mcpServers: { alpha: changing(), beta: changing(), ...servers } } }), { message }, what);
  }
});

t.test('a reload that breaks a virtual server is refused naming it; one that takes a tool away leaves it out, said once', async (t) => {
  const servers = { alpha: changing(), kit: { type: 'virtual', tools: [{ server: 'alpha', tool: 'echo', name: 'say' }] } };
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'info' }, { config: { plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: servers } });
  const client = await connectClient(t, `${hub.url}/kit/mcp`, '2025-11-25');
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
  // alpha is woken once (a call on its own endpoint): the kit then lists its tool.
  await connectClient(t, `${hub.url}/alpha/mcp`, '2025-11-25').then((alpha) => alpha.callTool({ name: 'echo', arguments: {} }));
  await waitFor('the kit to list say', async () => (await names()).includes('say'));

  await writeFile(
    hub.configFile,
    JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { ...servers, kit: { type: 'virtual', tools: [{ server: 'gone', tool: 'echo' }] } } }),
  );
  const refused = await hub.waitForLog('the refusal', (record) => record.msg.startsWith('config reload refused'));
  t.match(refused.msg, /server "kit": tools\[0\]: unknown server "gone"/);

  // alpha keeps only `mutable`: the kit's `say` goes, said once in the log, and is an unknown tool rather than an error.
  await writeFile(hub.configFile, JSON.stringify({ plugins: { 'oauth-as': false, 'map-tools': false }, mcpServers: { ...servers, alpha: { ...changing(), allowTools: ['mutable'] } } }));
  await hub.waitForLog('the reload', (record) => record.msg === 'config reloaded');
  await hub.waitForLog('the tool left out', (record) => /virtual server "kit": tools\[0\]: server "alpha" offers no tool "echo" \(any more\): left out/.test(record.msg));
  t.same(await names(), [], 'the kit lists nothing any more');
  await names();
  t.equal(hub.logs().filter((record) => /offers no tool "echo"/.test(record.msg)).length, 1, 'said once, however often it is listed');
  const call = await client.callTool({ name: 'say', arguments: {} }).catch((error: unknown) => error);
  t.match(call instanceof Error ? call.message : JSON.stringify(call), /say/, 'a call of it is an unknown tool');
});

t.test('hub check reports virtual servers and what they draw on', async (t) => {
  const folder = await tempDir(t);
  const file = join(folder, 'mcp.json');
  const config = {
    plugins: { 'map-tools': false, 'oauth-as': false },
    mcpServers: {
      alpha: changing(),
      kit: {
        type: 'virtual',
        tools: [
          { server: 'alpha', tool: 'echo', name: 'say' },
          { server: 'alpha', tool: '*', prefix: 'a_' },
        ],
      },
      broken: { type: 'virtual', tools: [{ server: 'nowhere', tool: 'echo' }] },
    },
  };
  await writeFile(file, JSON.stringify(config));
  const checked = formatReport(await checkConfig({ ...process.env, HUB_CONFIG: file, DATA_PATH: join(folder, 'data') }, false));
  // Issue 55.3: alpha never ran, so what "*" selects of it is not known yet; the check says so.
  t.match(checked, /^ {2}ok +kit +virtual: draws on alpha \(echo as say, \* as a_\*\); tools unknown yet of alpha \(never run\): what "\*" selects of it is listed once it has run$/m);
  t.match(checked, /^ {2}problem +broken .*server "broken": tools\[0\]: unknown server "nowhere"/m);
});
