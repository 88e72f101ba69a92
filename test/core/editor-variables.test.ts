import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import t from 'tap';
import { fixture } from './children/helpers.js';
import { checkConfig, formatReport } from '../../core/cli/check.js';
import { startHttpSink } from '../fixtures/servers/http-sink.js';
import { connectClient, REVISIONS } from '../helpers/clients.js';
import { startTestHub } from '../helpers/hub.js';

// Issue 60, item 1: Cursor's and VS Code's `${env:NAME}` is expanded as `${NAME}`, in every
// place an entry takes a string (headers, url, args, env); an editor's own variables
// (`${input:...}`, `${workspaceFolder}`, ...) and any other `${...}` are refused, naming the
// entry and what to write instead: nothing is ever sent with a literal `${...}`.
//
// | form              | headers | url | args | env | hub check | server down with why |
// |-------------------|---------|-----|------|-----|-----------|----------------------|
// | ${env:NAME}       | sent    | yes | yes  | yes | ok        | -                    |
// | ${env:NAME:-dflt} | -       | -   | -    | yes | ok        | -                    |
// | ${input:id}       | refused | -   | -    | -   | problem   | yes                  |
// | ${workspaceFolder}| -       | -   | yes  | -   | problem   | -                    |
// | ${userHome}, ${/} | -       | -   | yes  | -   | problem   | -                    |
// | ${command:x}      | -       | -   | -    | yes | problem   | -                    |
// | ${not a name}     | -       | yes | -    | -   | problem   | -                    |

const secret = `key-${randomBytes(8).toString('hex')}`;

t.test('${env:NAME} is expanded in headers, url, args and env, and sent expanded', async (t) => {
  const sink = await startHttpSink(t);
  const port = new URL(sink.url).port;
  const { url } = await startTestHub(t, {
    env: { API_KEY: secret, SINK_PORT: port, FIXTURE_DIR: dirname(fixture('guarded')) },
    config: {
      mcpServers: {
        remote: { type: 'http', url: 'http://127.0.0.1:${env:SINK_PORT}/mcp', headers: { 'X-Api-Key': '${env:API_KEY}' } },
        local: { command: process.execPath, args: ['${env:FIXTURE_DIR}/guarded.js'], env: { GUARDED_SECRET: '${env:API_KEY}|${env:UNSET_IN_THIS_TEST:-fallback}' } },
      },
    },
  });
  for (const revision of REVISIONS) {
    const remote = await connectClient(t, `${url}/remote/mcp`, revision);
    await remote.callTool({ name: 'list_colours', arguments: {} });
    t.equal(sink.calls.at(-1)?.headers['x-api-key'], secret, `${revision}: the header reached the upstream expanded`);

    const local = await connectClient(t, `${url}/local/mcp`, revision);
    const leaked = await local.callTool({ name: 'leak', arguments: {} });
    t.match(JSON.stringify(leaked.content), `here it is: ${secret}|fallback`, `${revision}: the child started from the expanded args with the expanded env`);
  }
});

/**
 * What `hub check` reports on `config`, made in this process as the CLI makes it
 * (checkConfig, then formatReport; the exit code is `ok ? 0 : 1`): how the config's
 * variables are read is the subject, the CLI's process is test/core/operator/check.test.ts's.
 */
async function check(config: unknown, env: Record<string, string> = {}) {
  const folder = await mkdtemp(join(tmpdir(), 'editor-variables-'));
  const file = join(folder, 'mcp.json');
  await writeFile(file, JSON.stringify(config));
  const report = await checkConfig({ ...process.env, HUB_CONFIG: file, DATA_PATH: join(folder, 'data'), HUB_PASSWORD: 'a-password-for-the-test', ...env }, false);
  return { ok: report.ok, text: formatReport(report) };
}

t.test("an editor's variables are refused, naming the entry and what to write", async (t) => {
  const stdio = (args: string[], env?: Record<string, string>) => ({ command: process.execPath, args: [fixture('guarded'), ...args], ...(env && { env }) });
  const result = await check(
    {
      mcpServers: {
        prompted: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${input:github-token}' } },
        folder: stdio(['${workspaceFolder}/data']),
        home: stdio(['${userHome}${/}notes']),
        command: stdio([], { PICKED: '${command:pickProcess}' }),
        garbled: { type: 'http', url: 'http://127.0.0.1:9/${not a name}' },
        cursor: stdio(['${env:HOME}'], { TOKEN: '${env:API_KEY}' }),
      },
      plugins: { 'map-tools': false },
    },
    { API_KEY: secret, HOME: '/home/someone' },
  );
  t.match(
    result.text,
    /problem\s+prompted\s.*\$\{input:github-token\} \(used at mcpServers\.prompted\.headers\.Authorization\) is a VS Code prompt, which the hub cannot show; write \$\{NAME\} and set NAME/,
    result.text,
  );
  t.match(result.text, /problem\s+folder\s.*\$\{workspaceFolder\} \(used at mcpServers\.folder\.args\[1\]\) is an editor's variable .*; write the absolute path/);
  t.match(result.text, /problem\s+home\s.*\$\{userHome\} \(used at mcpServers\.home\.args\[1\]\) .*; write \$\{HOME\}/);
  t.match(result.text, /problem\s+command\s.*\$\{command:pickProcess\} \(used at mcpServers\.command\.env\.PICKED\) is an editor's variable/);
  t.match(result.text, /problem\s+garbled\s.*\$\{not a name\} \(used at mcpServers\.garbled\.url\) is not a variable the hub expands; write \$\{NAME\}/);
  t.match(result.text, /ok\s+cursor\s/, "Cursor's ${env:NAME} checks out");
  t.equal(result.ok, false, 'the check fails');
});

t.test('a server with an unexpandable reference is down saying why, and nothing is sent', async (t) => {
  const sink = await startHttpSink(t);
  const { hub } = await startTestHub(t, {
    config: { mcpServers: { prompted: { type: 'http', url: sink.url, headers: { 'X-Api-Key': '${input:api-key}' } } } },
  });
  t.match(hub.children.get('prompted')?.blocked, /\$\{input:api-key\} \(used at mcpServers\.prompted\.headers\.X-Api-Key\) is a VS Code prompt/, 'down, saying why');
  t.equal(sink.calls.length, 0, 'the upstream heard nothing');
});

t.test("outside the servers (a plugin's options), an editor's variable stops the start naming it", async (t) => {
  const result = await check({ mcpServers: {}, plugins: { 'map-tools': false, 'guard-secrets': { mode: '${input:mode}' } } });
  t.match(result.text, /problem .*\$\{input:mode\} \(used at plugins\.guard-secrets\.mode\) is a VS Code prompt/);
  t.equal(result.ok, false);
  t.match(result.text, /the hub would not start\n$/);
});
