import { ProtocolError as ClientProtocolError, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import { ProtocolError, Server } from '@modelcontextprotocol/server';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { githubToken } from './helpers.js';

/*
 * Issue 54, item 2: guard-secrets scans every channel a child's words reach a caller by
 * during a call. The child below leaks one token through each; the caller must never see
 * it, on any road, and sees `[REDACTED:github]` where it was.
 *
 * | channel                                   | /<name>/mcp 2026-07-28 | /<name>/mcp 2025-11-25 | /hub call_tool (both) | run_code's answer |
 * |-------------------------------------------|------------------------|------------------------|-----------------------|-------------------|
 * | text content                              | redacted               | redacted               | redacted              | redacted          |
 * | embedded resource text                    | redacted               | redacted               | redacted              | -                 |
 * | resource_link uri, name, description      | redacted               | redacted               | redacted              | -                 |
 * | structuredContent values and object keys  | redacted               | redacted               | redacted              | redacted          |
 * | result _meta, an unknown result field     | redacted               | redacted               | redacted              | -                 |
 * | JSON-RPC error message and data           | redacted               | redacted               | redacted (tool error) | redacted          |
 * | progress notifications during the call    | redacted               | redacted               | redacted              | -                 |
 * | logging notifications during the call     | not relayed by the hub | redacted (level set)   | not relayed           | -                 |
 *
 * In block mode the result is withheld, the error's words are replaced and the notification dropped.
 */

const SECRET = githubToken();
const REDACTED = '[REDACTED:github]';

/** A low-level server: McpServer would turn a thrown error into a tool error, and the child's JSON-RPC error is what is tested. */
function createLeaky(): Server {
  const server = new Server({ name: 'leaky', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  const inputSchema = { type: 'object' as const, properties: {} };
  server.setRequestHandler('tools/list', async () => ({
    tools: [
      { name: 'fail', description: 'A JSON-RPC error that quotes a token', inputSchema },
      { name: 'chatty', description: 'Leaks through every part of a result and its notifications', inputSchema },
    ],
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    if (request.params.name === 'fail') throw new ProtocolError(-32010, `upstream refused token ${SECRET}`, { token: SECRET, hint: 'kept' });
    const token = request.params._meta?.progressToken;
    if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2, message: `using ${SECRET}` } });
    await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data: `logging ${SECRET}` } });
    return {
      content: [
        { type: 'text' as const, text: `text ${SECRET}` },
        { type: 'resource' as const, resource: { uri: 'file:///env', text: `GITHUB_TOKEN=${SECRET}` } },
        { type: 'resource_link' as const, uri: `https://example.com/?token=${SECRET}`, name: `link ${SECRET}`, description: `see ${SECRET}` },
      ],
      structuredContent: { [SECRET]: 'as a key', nested: { value: `value ${SECRET}` } },
      _meta: { note: `meta ${SECRET}` },
      extra: `unknown field ${SECRET}`,
    };
  });
  return server;
}

interface Heard {
  answer: unknown;
  notifications: unknown[];
}

/** Calls `tool` on `road`, with a progress token, and keeps all the caller heard: the answer (or error) and every notification. */
async function hear(client: Client, notifications: unknown[], call: () => Promise<unknown>): Promise<Heard> {
  const before = notifications.length;
  const answer = await call().catch((error: unknown) => (ClientProtocolError.isInstance(error) ? { code: error.code, message: error.message, data: error.data } : { thrown: String(error) }));
  return { answer, notifications: notifications.slice(before) };
}

t.test('guard-secrets redacts every channel a child reaches the caller by, on every road', async (t) => {
  const { url } = await startTestHub(t, {
    config: { plugins: { 'map-tools': false, 'guard-secrets': true, 'code-mode': true } },
    setup: (hub) => {
      hub.servers.addInProcess('leaky', createLeaky);
      hub.servers.addInProcess('strict', createLeaky, { guardSecrets: { mode: 'block' } });
    },
  });
  for (const revision of REVISIONS) {
    for (const road of ['server', 'hub'] as const) {
      const on = `${road === 'server' ? '/<name>/mcp' : '/hub'} on ${revision}`;
      const notifications: unknown[] = [];
      const client = await connectClient(t, road === 'server' ? `${url}/leaky/mcp` : `${url}/hub`, revision);
      client.fallbackNotificationHandler = async (notification) => void notifications.push(notification);
      const options = { onprogress: (progress: unknown) => void notifications.push(progress) };
      const call = (tool: string) =>
        road === 'server' ? client.callTool({ name: tool, arguments: {} }, options) : client.callTool({ name: 'call_tool', arguments: { server: 'leaky', tool, arguments: {} } }, options);
      const chatty = await hear(client, notifications, () => call('chatty'));
      const seen = JSON.stringify(chatty);
      t.notMatch(seen, SECRET.slice(4), `${on}: the token reaches the caller by no channel`);
      const result = chatty.answer as CallToolResult & { extra?: string };
      if (road === 'server') {
        t.same(
          result.content,
          [
            { type: 'text', text: `text ${REDACTED}` },
            { type: 'resource', resource: { uri: 'file:///env', text: `GITHUB_TOKEN=${REDACTED}` } },
            { type: 'resource_link', uri: `https://example.com/?token=${REDACTED}`, name: `link ${REDACTED}`, description: `see ${REDACTED}` },
          ],
          `${on}: text, embedded resource and resource link, redacted in place`,
        );
        t.same(result.structuredContent, { [REDACTED]: 'as a key', nested: { value: `value ${REDACTED}` } }, `${on}: structuredContent, keys included`);
        t.match(result._meta, { note: `meta ${REDACTED}` }, `${on}: _meta`);
        if (result.extra !== undefined) t.equal(result.extra, `unknown field ${REDACTED}`, `${on}: an unknown field`);
      } else t.match(seen, `text ${REDACTED}`, `${on}: the result, redacted`);
      t.match(JSON.stringify(chatty.notifications), `using ${REDACTED}`, `${on}: the progress notification arrives, redacted`);

      const failed = await hear(client, notifications, () => call('fail'));
      t.notMatch(JSON.stringify(failed), SECRET.slice(4), `${on}: the error never carries the token`);
      if (road === 'server')
        t.same(failed.answer, { code: -32010, message: `upstream refused token ${REDACTED}`, data: { token: REDACTED, hint: 'kept' } }, `${on}: the error's message and data, redacted, its code kept`);
      else t.match(JSON.stringify(failed.answer), `upstream refused token ${REDACTED}`, `${on}: the error as /hub tells it, redacted`);
    }
    const strictNotifications: unknown[] = [];
    const strict = await connectClient(t, `${url}/strict/mcp`, revision);
    const blocked = await hear(strict, strictNotifications, () => strict.callTool({ name: 'chatty', arguments: {} }, { onprogress: (progress) => void strictNotifications.push(progress) }));
    t.notMatch(JSON.stringify(blocked), SECRET.slice(4), `block mode on ${revision}: nothing of the token`);
    t.equal(blocked.notifications.length, 0, `block mode on ${revision}: the progress notification that carried it is dropped`);
    t.match(JSON.stringify(blocked.answer), /refused by plugin \\"guard-secrets\\"/, `block mode on ${revision}: the result withheld`);
    const strictError = await hear(strict, strictNotifications, () => strict.callTool({ name: 'fail', arguments: {} }));
    t.match(
      strictError.answer,
      { code: -32010, message: /withheld by plugin "guard-secrets": it carries a secret \(github\)/ },
      `block mode on ${revision}: the error's words withheld, its code kept`,
    );
    t.equal((strictError.answer as { data?: unknown }).data, undefined, `block mode on ${revision}: and its data`);

    const code = await connectClient(t, `${url}/hub`, revision);
    const program = `const token = ${JSON.stringify(SECRET.slice(0, 4))} + ${JSON.stringify(SECRET.slice(4))};
console.log('printed ' + token);
let failure = '';
try { await servers.leaky.fail({}); } catch (error) { failure = String(error.message); }
return { [token]: failure, echoed: await servers.leaky.chatty({}) };`;
    const answer = await code.callTool({ name: 'run_code', arguments: { code: program } });
    const said = JSON.stringify(answer);
    t.notMatch(said, SECRET.slice(4), `run_code on ${revision}: the answer carries no token, whether printed, returned as a key or quoted from an error`);
    t.match(said, `printed ${REDACTED}`, `run_code on ${revision}: what the program printed, redacted`);
  }
});

t.test('guard-secrets scans the log messages a 2025-11-25 caller who set a level hears during its call', async (t) => {
  const { url } = await startTestHub(t, {
    config: { plugins: { 'map-tools': false, 'guard-secrets': true } },
    setup: (hub) => {
      hub.servers.addInProcess('leaky', createLeaky);
      hub.servers.addInProcess('strict', createLeaky, { guardSecrets: { mode: 'block' } });
    },
  });
  for (const server of ['leaky', 'strict']) {
    const notifications: unknown[] = [];
    const client = await connectClient(t, `${url}/${server}/mcp`, '2025-11-25');
    client.fallbackNotificationHandler = async (notification) => void notifications.push(notification);
    await client.setLoggingLevel('info');
    const heard = await hear(client, notifications, () => client.callTool({ name: 'chatty', arguments: {} }));
    t.notMatch(JSON.stringify(heard), SECRET.slice(4), `${server}: the token reaches the caller by no channel`);
    const logs = heard.notifications.filter((notification) => (notification as { method?: string }).method === 'notifications/message');
    if (server === 'leaky') t.match(logs, [{ params: { level: 'info', data: `logging ${REDACTED}` } }], 'the log message arrives, redacted');
    else t.same(logs, [], 'block mode: the log message that carried it is dropped');
  }
});
