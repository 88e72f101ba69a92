import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { rawRequest } from '../../helpers/raw.js';
import { startTestHub } from '../../helpers/hub.js';
import { echoMetaEntry, operatorSession, sample, total } from './helpers.js';

/** A server that cannot start: it says why on stderr and exits. */
const BROKEN = { command: process.execPath, args: ['-e', "process.stderr.write('error: cannot open the database\\n'); process.exit(1)"] };

const records = (logs: string[]) => logs.map((line) => JSON.parse(line) as Record<string, unknown>);
/** What the log says of each tool call: its request's access record (a call over HTTP), else a `tool call` line. */
const callLines = (logs: string[]) => records(logs).filter((record) => (record.msg === 'request' && record.rpc === 'tools/call') || record.msg === 'tool call');

/**
 * Issue 27, defect 1: a call to a server that cannot start, to an unknown tool or to a
 * tool in denyTools was in no `hub_tool_calls_total` sample, no call-log line and no
 * status-page count. Each failure class, on `/<name>/mcp` and through `/hub`'s
 * `call_tool`, on both revisions, is counted once with its outcome and logged once.
 */
t.test('every call for a server is counted once with its outcome, logged once and on the status page, refusals included', async (t) => {
  const logs: string[] = [];
  const { url } = await startTestHub(t, {
    logs,
    config: {
      mcpServers: { meta: { ...echoMetaEntry(), denyTools: ['echo'] }, broken: BROKEN, private: { ...echoMetaEntry(), hub: false } },
      plugins: { 'map-tools': false },
    },
    env: { HUB_PASSWORD: 'pw' },
  });
  // A name only this caller could know: it must never become a label value.
  const madeUp = `made_up_${randomBytes(6).toString('hex')}`;
  // Its own endpoint wakes it, so the hub knows its tools.
  await connectClient(t, `${url}/private/mcp`, '2026-07-28');
  let calls = 0;
  for (const revision of REVISIONS) {
    const meta = await connectClient(t, `${url}/meta/mcp`, revision);
    t.notOk((await meta.callTool({ name: 'echo_meta', arguments: {} })).isError, `${revision}: a tool the server lists`);
    await t.rejects(meta.callTool({ name: madeUp, arguments: {} }), { code: -32602 }, `${revision}: an unknown tool`);
    await t.rejects(meta.callTool({ name: 'echo', arguments: {} }), { code: -32602 }, `${revision}: a tool in denyTools, answered as an unknown one`);
    // Its handshake answers the failed start, so the call is sent by hand.
    const broken = await rawRequest(`${url}/broken/mcp`, revision, 'tools/call', { name: 'anything', arguments: {} });
    t.match(broken.error, { code: -32603, message: /cannot open the database/ }, `${revision}: a server that cannot start`);

    const hub = await connectClient(t, `${url}/hub`, revision);
    const through = (server: string, tool: string) => hub.callTool({ name: 'call_tool', arguments: { server, tool, arguments: {} } });
    t.notOk((await through('meta', 'echo_meta')).isError, `${revision}: call_tool: a listed tool`);
    t.match(await through('meta', madeUp), { isError: true, content: [{ text: /Unknown tool/ }] }, `${revision}: call_tool: an unknown tool`);
    t.match(await through('meta', 'echo'), { isError: true, content: [{ text: /Unknown tool/ }] }, `${revision}: call_tool: a denied tool`);
    t.match(await through('broken', 'anything'), { isError: true, content: [{ text: /Tool call failed: .*cannot open the database/ }] }, `${revision}: call_tool: a server that cannot start`);
    t.match(await through('private', 'echo_meta'), { isError: true, content: [{ text: /not offered through \/hub/ }] }, `${revision}: call_tool: a hub: false server`);
    t.match(await through('nowhere', 'echo_meta'), { isError: true, content: [{ text: /Unknown server/ }] }, `${revision}: call_tool naming no server`);
    await hub.callTool({ name: 'list_servers', arguments: {} });
    calls += 11;
  }

  const text = await (await fetch(`${url}/metrics`)).text();
  const count = (server: string, tool: string, outcome: string) => sample(text, 'hub_tool_calls_total', { server, tool, outcome });
  t.equal(count('meta', 'echo_meta', 'ok'), 4, 'ok: two direct, two through call_tool');
  t.equal(count('meta', '(unlisted)', 'unknown_tool'), 4, 'unknown_tool, under "(unlisted)"');
  t.equal(count('meta', 'echo', 'denied'), 4, 'denied, under the name denyTools gives');
  t.equal(count('broken', '(unlisted)', 'unavailable'), 4, 'unavailable: the server could not start');
  t.equal(count('private', 'echo_meta', 'refused'), 2, 'refused: a hub: false server through /hub');
  t.equal(count('hub', 'call_tool', 'tool_error'), 2, "call_tool naming no server is the hub's own tool error");
  t.equal(count('hub', 'list_servers', 'ok'), 2, "/hub's own tools are counted under the server hub");
  t.notOk(text.includes(madeUp), 'the made-up name is no label value');
  t.equal(total(text, 'hub_tool_calls_total'), calls, 'every tools/call the hub answered is counted, none twice');
  t.equal(total(text, 'hub_mcp_requests_total', { method: 'tools/call' }), calls, 'as many as the tools/call requests answered');
  t.equal(sample(text, 'hub_tool_call_duration_seconds_count', { server: 'broken', tool: '(unlisted)', outcome: 'unavailable' }), 4, 'refusals are in the duration histogram too');

  const lines = callLines(logs);
  t.equal(lines.length, calls, 'one line per call');
  t.same(
    lines
      .filter((line) => typeof line.server === 'string' && line.server !== 'hub')
      .map((line) => line.outcome)
      .sort(),
    [
      'denied',
      'denied',
      'denied',
      'denied',
      'ok',
      'ok',
      'ok',
      'ok',
      'refused',
      'refused',
      'unavailable',
      'unavailable',
      'unavailable',
      'unavailable',
      'unknown_tool',
      'unknown_tool',
      'unknown_tool',
      'unknown_tool',
    ],
    'each with its outcome',
  );
  t.match(
    lines.find((line) => line.outcome === 'unavailable'),
    { server: 'broken', tool: 'anything', errorCode: /^HUB_ERR_/ },
    'the call log names what the caller asked for, and the error code',
  );
  // Issue 60, item 10: troubleshooting.md names the keys of the access record a failed call is read from, as the record has them.
  const troubleshooting = await readFile(new URL('../../../../docs/operations/troubleshooting.md', import.meta.url), 'utf8');
  const named = /has the\s+call's ((?:`\w+`,?\s+(?:and\s+)?)+)\(each a top-level key\)/.exec(troubleshooting)?.[1];
  const keys = [...(named ?? '').matchAll(/`(\w+)`/g)].map((match) => match[1] ?? '');
  t.same(keys, ['server', 'tool', 'client', 'outcome', 'errorCode'], 'troubleshooting.md lists the keys a failed call is read by');
  const failed = lines.find((line) => line.outcome === 'unavailable' && line.msg === 'request') ?? {};
  // `client` is there when a token named the caller; these calls carry none.
  t.same(
    keys.filter((key) => key !== 'client' && !(key in failed)),
    [],
    'and each is a top-level key of the access record',
  );
  t.notOk('fields' in failed, 'none is nested under fields');

  const cookie = await operatorSession(url, 'pw');
  const status = (await (await fetch(`${url}/status.json`, { headers: { cookie } })).json()) as {
    servers: Array<{ name: string; recent: { calls: number; failed: number; outcomes: Record<string, number> }; tools: Array<{ name: string; outcomes: Record<string, number> }> }>;
    hub: { tools: Array<{ name: string; calls: number }> };
  };
  const server = (name: string) => status.servers.find((entry) => entry.name === name);
  t.match(server('meta')?.recent, { calls: 12, failed: 8, outcomes: { ok: 4, unknown_tool: 4, denied: 4 } }, 'the status page counts them');
  t.match(server('broken')?.recent, { calls: 4, failed: 4, outcomes: { unavailable: 4 } });
  t.match(server('private')?.recent, { calls: 2, outcomes: { refused: 2 } });
  t.match(
    server('meta')?.tools.find((tool) => tool.name === 'echo'),
    { outcomes: { denied: 4 } },
    'per tool',
  );
  t.match(
    status.hub.tools.find((tool) => tool.name === 'list_servers'),
    { calls: 2 },
  );
});
