import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { checkConfig, formatReport } from '../../core/cli/check.js';
import { fixture } from './children/helpers.js';
import { startTestHub } from '../helpers/hub.js';

// Issue 43, item 12: configs copied from other clients: VS Code's "servers", the
// "streamable-http"/"streamableHttp" type, Windsurf's "serverUrl". What is unambiguous is
// read with one info line; what is not is refused saying what to write.

const stdio = { command: process.execPath, args: [fixture('changing-tools')] };

/**
 * What `hub check` reports on `config`, run in this process as the CLI runs it (checkConfig,
 * then formatReport; the exit code is `ok ? 0 : 1`): how the config is read is the subject,
 * the process is test/core/operator/check.test.ts's.
 */
async function check(config: unknown): Promise<{ ok: boolean; text: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'other-clients-'));
  const file = join(folder, 'mcp.json');
  await writeFile(file, JSON.stringify(config));
  const report = await checkConfig({ ...process.env, HUB_CONFIG: file, DATA_PATH: join(folder, 'data'), HUB_PASSWORD: 'a-password-for-the-test' }, false);
  return { ok: report.ok, text: formatReport(report) };
}

t.test("VS Code's top-level servers are read as mcpServers", async (t) => {
  const result = await check({ servers: { vscode: stdio } });
  t.equal(result.ok, true, result.text);
  t.match(result.text, /ok\s+vscode\s/, 'the server is checked');
  t.match(result.text, /all 1 servers checked out/);
});

t.test('streamable-http, streamableHttp and serverUrl are read as http and url', async (t) => {
  const result = await check({
    mcpServers: {
      dashed: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp' },
      camel: { type: 'streamableHttp', url: 'http://127.0.0.1:9/mcp' },
      windsurf: { serverUrl: 'http://127.0.0.1:9/mcp' },
    },
  });
  for (const name of ['dashed', 'camel', 'windsurf']) t.match(result.text, new RegExp(`ok\\s+${name}\\s+http:`), `${name} is an http server`);
  t.equal(result.ok, true, result.text);
});

t.test('what is ambiguous is refused, saying what to write', async (t) => {
  const both = await check({ servers: { a: stdio }, mcpServers: { b: stdio } });
  t.match(both.text, /both "servers" \(VS Code's key\) and "mcpServers" are set: move the entries of "servers" into "mcpServers"/);
  t.equal(both.ok, false);
  const urls = await check({ mcpServers: { w: { serverUrl: 'http://127.0.0.1:9/a', url: 'http://127.0.0.1:9/b' } } });
  t.match(urls.text, /server "w": both "serverUrl" \(Windsurf's key\) and "url" are set and differ: keep "url" only/);
  const none = await check({ mcpServer: {} });
  t.match(none.text, /no servers are configured/, 'an empty config does not read as all servers checked out');
});

t.test('each rewrite is told in one info line', async (t) => {
  const logs: string[] = [];
  await startTestHub(t, { logs, config: { servers: { w: { type: 'streamableHttp', serverUrl: 'http://127.0.0.1:9/mcp' } } } });
  const notes = logs.map((line) => JSON.parse(line) as { msg: string; level: number }).filter((record) => record.msg.startsWith('written for another client'));
  t.same(
    notes.map((record) => [record.level, record.msg]),
    [
      [30, 'written for another client: "servers" (VS Code\'s key) read as "mcpServers"'],
      [30, 'written for another client: mcpServers.w: "type": "streamableHttp" read as "http" (Streamable HTTP)'],
      [30, 'written for another client: mcpServers.w: "serverUrl" (Windsurf\'s key) read as "url"'],
    ],
  );
});
