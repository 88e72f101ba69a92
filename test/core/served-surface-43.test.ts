import { join } from 'node:path';
import t from 'tap';
import type { PluginHub } from '../../core/plugin-hub.js';
import { createKitchenSink } from '../fixtures/servers/kitchen-sink.js';
import { REVISIONS, connectClient } from '../helpers/clients.js';
import { startTestHub } from '../helpers/hub.js';
import { fixtureEntry, tempDir } from './children/helpers.js';

// Issue 43.5: switches that would leave nothing working are refused at start, or said.

const setup = (hub: PluginHub) => void hub.servers.addInProcess('sink', createKitchenSink);

function records(lines: string[]): { level: number; msg: string; server?: string }[] {
  return lines.map((line) => JSON.parse(line) as { level: number; msg: string; server?: string });
}

t.test('no revision for callers is refused at start, with the reason', async (t) => {
  await t.rejects(startTestHub(t, { config: { plugins: { 'mcp-2026-07-28': false, 'mcp-2025-11-25': false } } }), {
    code: 'HUB_ERR_NO_REVISION',
    message: /^no MCP revision is served to callers, so no client could use \/hub or any \/<name>\/mcp; enable a revision plugin/,
  });
  await t.rejects(startTestHub(t, { config: { plugins: { 'mcp-2026-07-28': false, 'mcp-2025-11-25': { callers: false } } } }), {
    code: 'HUB_ERR_NO_REVISION',
    message: /no MCP revision is served to callers \(2025-11-25 is spoken to servers only: "callers": false\)/,
  });
});

t.test('without meta-tools /hub is not served, and the servers are', async (t) => {
  const logs: string[] = [];
  const { url } = await startTestHub(t, { setup, logs, config: { plugins: { 'meta-tools': false } } });
  const hub = await fetch(`${url}/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}',
  });
  t.equal(hub.status, 404, '/hub is not there to list nothing');
  await hub.body?.cancel();
  t.ok(
    records(logs).some((record) => record.msg.startsWith('no plugin adds a tool to /hub (meta-tools is disabled): /hub is not served')),
    'said at start',
  );
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/sink/mcp`, revision);
    t.ok((await client.listTools()).tools.length > 0, `${revision}: a server's own endpoint works`);
  }
});

t.test('without mcp-2025-11-25, a warning at start, and one naming each server that speaks only it once tried', async (t) => {
  const logs: string[] = [];
  const starts = join(await tempDir(t), 'starts');
  const { url } = await startTestHub(t, { logs, config: { plugins: { 'mcp-2025-11-25': false }, mcpServers: { old: fixtureEntry('echo-meta', starts) } } });
  t.ok(
    records(logs).some((record) => record.level === 40 && record.msg.startsWith('MCP 2025-11-25 is spoken to no server (is mcp-2025-11-25 disabled?)')),
    'the start warns that such servers are unreachable',
  );
  t.notOk(
    records(logs).some((record) => record.server === 'old' && record.level === 40),
    'nothing is named before it is tried',
  );
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  for (let attempt = 0; attempt < 2; attempt++) {
    const answer = await client.callTool({ name: 'call_tool', arguments: { server: 'old', tool: 'echo_meta' } });
    t.equal(answer.isError, true);
  }
  const named = records(logs).filter(
    (record) => record.server === 'old' && record.msg === 'server "old" speaks only MCP 2025-11-25, which no enabled revision plugin speaks to servers: it is unreachable until one does',
  );
  t.equal(named.length, 1, 'the server is named once, after the first try');
});

t.test('with both revisions on, none of this is said', async (t) => {
  const logs: string[] = [];
  const starts = join(await tempDir(t), 'starts');
  await startTestHub(t, { setup, logs, config: { mcpServers: { old: fixtureEntry('echo-meta', starts) } } });
  t.notOk(records(logs).some((record) => /spoken to no server|is not served/.test(record.msg)));
});
