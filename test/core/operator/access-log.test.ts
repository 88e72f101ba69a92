import t from 'tap';
import { adminBeside } from '../../helpers/admin.js';
import { startStandaloneHub, type StandaloneHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { echoMetaEntry } from '../../plugins/observability/helpers.js';

// Issue 26, item 2: at the default level, one log record per HTTP request, the access
// record, with what an operator needs of a tool call; Fastify's own request records only
// at debug, probes not at info. The standalone hub (what the hub bin runs, its logger and
// the access record included) runs in this process, its log going to a file: the subject
// is what the log holds, not the hub's process.

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** A request to `path` (no route) whose record marks a point in the log, once it is there (the log is written asynchronously). */
async function mark(hub: StandaloneHub, path: string): Promise<number> {
  t.equal((await fetch(`${hub.url}${path}`)).status, 404);
  await hub.waitForLog(`the record of ${path}`, (record) => record.msg === 'request' && record.path === path);
  return hub.logs().findIndex((record) => record.msg === 'request' && record.path === path);
}

t.test('at info, exactly one record per tool call over HTTP, and none for probes', async (t) => {
  const hub = await startStandaloneHub(t, { HUB_PASSWORD: 'access-log', LOG_LEVEL: undefined }, { config: { plugins: { 'map-tools': false }, mcpServers: { meta: echoMetaEntry() } } });
  const minted = await adminBeside(hub.env)('tokens', 'mint', '--all', '--label', 'access log');
  t.equal(minted.code, 0, minted.stderr);
  const headers = { authorization: `Bearer ${minted.stdout.trim()}` };
  const tokenId = /token id ([^\s,]+)/.exec(minted.stderr)?.[1];

  const from = await mark(hub, '/mark-before-the-calls');
  // The SDK's road too: a call asking for progress.
  const calls = [
    { path: '/meta/mcp', revision: '2026-07-28', name: 'echo_meta', arguments: {}, meta: {} },
    { path: '/meta/mcp', revision: '2025-11-25', name: 'echo_meta', arguments: {}, meta: {} },
    { path: '/hub', revision: '2026-07-28', name: 'call_tool', arguments: { server: 'meta', tool: 'echo_meta', arguments: {} }, meta: {} },
    { path: '/hub', revision: '2025-11-25', name: 'call_tool', arguments: { server: 'meta', tool: 'echo_meta', arguments: {} }, meta: {} },
    { path: '/meta/mcp', revision: '2026-07-28', name: 'echo_meta', arguments: {}, meta: { progressToken: 'sdk-road' } },
    { path: '/hub', revision: '2025-11-25', name: 'call_tool', arguments: { server: 'meta', tool: 'echo_meta', arguments: {} }, meta: { progressToken: 'sdk-road' } },
  ];
  for (const call of calls) {
    const answer = await rawRequest(
      `${hub.url}${call.path}`,
      call.revision,
      'tools/call',
      { name: call.name, arguments: call.arguments },
      { headers, meta: { traceparent: TRACEPARENT, ...call.meta } },
    );
    t.equal(answer.status, 200, `${call.path} ${call.revision} answered`);
  }
  for (const probe of ['/livez', '/readyz', '/metrics']) t.equal((await fetch(`${hub.url}${probe}`)).status, 200, `${probe} answered`);
  const to = await mark(hub, '/mark-after-the-calls');

  const between = hub.logs().slice(from + 1, to);
  t.equal(between.length, calls.length, 'one record per call: no "incoming request", "request completed" or call log line, and nothing for the probes');
  for (const [index, call] of calls.entries()) {
    t.match(
      between[index],
      {
        level: 30,
        msg: 'request',
        method: 'POST',
        path: call.path,
        endpoint: call.path === '/hub' ? 'hub' : 'meta',
        rpc: 'tools/call',
        revision: call.revision,
        server: 'meta',
        tool: 'echo_meta',
        client: `api-token:${tokenId}`,
        status: 200,
        durationMs: Number,
        traceId: TRACE_ID,
        outcome: 'ok',
      },
      `${call.path} ${call.revision}${'progressToken' in call.meta ? ' (the SDK road)' : ''}: what the call was, who made it, how it ended`,
    );
  }
  t.notOk(
    hub.logs().some((record) => record.msg === 'incoming request' || record.msg === 'request completed'),
    "Fastify's own request records are at debug",
  );
});

t.test("at debug, the probes' records and Fastify's own are there", async (t) => {
  const hub = await startStandaloneHub(t, { LOG_LEVEL: 'debug' }, { config: { plugins: { 'map-tools': false, 'oauth-as': false }, mcpServers: {} } });
  t.equal((await fetch(`${hub.url}/livez`)).status, 200);
  await hub.waitForLog('the probe', (record) => record.msg === 'request' && record.path === '/livez' && record.level === 20);
  await hub.waitForLog("Fastify's record", (record) => record.msg === 'request completed' && record.level === 20);
});
