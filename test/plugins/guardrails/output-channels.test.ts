import { ProtocolError as ClientProtocolError, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import { ProtocolError, Server } from '@modelcontextprotocol/server';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { until } from '../virtual-servers/helpers.js';

/*
 * Issue 54, item 3: output-limit counts every byte a call sends the caller, whatever the
 * field, however many blocks, and the notifications during the call, and cuts or refuses at
 * the cap with a notice. The child below tries each way around a cap of 2048 bytes.
 *
 * | channel                               | /<name>/mcp 2026-07-28 | /<name>/mcp 2025-11-25 | /hub call_tool (both) | virtual server (both) |
 * |---------------------------------------|------------------------|------------------------|-----------------------|-----------------------|
 * | result _meta and an unknown field     | dropped, notice        | dropped, notice        | dropped, notice       | dropped, notice       |
 * | 3,000 tiny content blocks             | cut, notice            | cut, notice            | cut, notice           | cut, notice           |
 * | a 20 KB JSON-RPC error message        | cut, notice            | cut, notice            | cut (tool error)      | cut, notice           |
 * | 50 progress notifications of 1 KB     | dropped past the cap   | dropped past the cap   | dropped past the cap  | dropped past the cap  |
 *
 * run_code's answer: test/plugins/code-mode/output-limit.test.ts.
 */

const MAX_BYTES = 2048;
/** Room for the hub's own framing and the notice, which are outside the cap. */
const SLACK = 1024;
const inputSchema = { type: 'object' as const, properties: {} };

function createFlood(): Server {
  const server = new Server({ name: 'flood', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({
    tools: ['fat_meta', 'many_blocks', 'long_error', 'chatty'].map((name) => ({ name, description: name, inputSchema })),
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    switch (request.params.name) {
      case 'fat_meta':
        return { content: [{ type: 'text' as const, text: 'small' }], _meta: { padding: 'm'.repeat(20_000) }, extra: 'x'.repeat(20_000) };
      case 'many_blocks':
        return { content: Array.from({ length: 3000 }, () => ({ type: 'text' as const, text: 'a' })) };
      case 'long_error':
        throw new ProtocolError(-32010, 'e'.repeat(20_000), { more: 'd'.repeat(20_000) });
      default: {
        const token = request.params._meta?.progressToken;
        for (let step = 0; token !== undefined && step < 50; step++) {
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: 50, message: 'p'.repeat(1024) } });
        }
        return { content: [{ type: 'text' as const, text: 'done' }] };
      }
    }
  });
  return server;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

t.test('output-limit counts every byte a call sends, on every road', async (t) => {
  const { url, hub } = await startTestHub(t, {
    config: {
      plugins: { 'map-tools': false, 'output-limit': { maxBytes: MAX_BYTES } },
      mcpServers: { kit: { type: 'virtual', tools: [{ server: 'flood', tool: '*' }] } },
    },
    setup: (plugin) => void plugin.servers.addInProcess('flood', createFlood),
  });
  await hub.children.get('flood')?.ensureUp();
  await until(() => hub.children.get('kit')?.findTool('chatty') !== undefined);
  for (const revision of REVISIONS) {
    const roads: Record<string, { client: Client; call: (tool: string, onprogress: (progress: unknown) => void) => Promise<unknown> }> = {};
    for (const endpoint of ['flood', 'kit']) {
      const client = await connectClient(t, `${url}/${endpoint}/mcp`, revision);
      roads[`/${endpoint}/mcp on ${revision}`] = { client, call: (tool, onprogress) => client.callTool({ name: tool, arguments: {} }, { onprogress }) };
    }
    const viaHub = await connectClient(t, `${url}/hub`, revision);
    roads[`/hub on ${revision}`] = { client: viaHub, call: (tool, onprogress) => viaHub.callTool({ name: 'call_tool', arguments: { server: 'flood', tool, arguments: {} } }, { onprogress }) };
    for (const [on, { call }] of Object.entries(roads)) {
      const answer = (tool: string, onprogress: (progress: unknown) => void = () => undefined) =>
        call(tool, onprogress).catch((error: unknown) => (ClientProtocolError.isInstance(error) ? { code: error.code, message: error.message, data: error.data } : { thrown: String(error) }));

      const fat = (await answer('fat_meta')) as CallToolResult & { extra?: unknown };
      t.ok(bytes(fat) <= MAX_BYTES + SLACK, `${on}: _meta and an unknown field of 40 KB do not pass whole (${bytes(fat)} bytes)`);
      t.match(JSON.stringify(fat.content), /output-limit: this result was cut.*_meta and other fields/, `${on}: the notice says they were dropped`);
      t.match(JSON.stringify(fat.content), 'small', `${on}: the content that fits is kept`);

      const blocks = (await answer('many_blocks')) as CallToolResult;
      t.ok(bytes(blocks) <= MAX_BYTES + SLACK, `${on}: 3,000 tiny blocks are counted with their framing (${bytes(blocks)} bytes)`);
      t.match(JSON.stringify(blocks.content), /content blocks? left out/, `${on}: the notice says blocks were left out`);

      const failed = await answer('long_error');
      t.ok(bytes(failed) <= MAX_BYTES + SLACK, `${on}: a 40 KB error does not pass whole (${bytes(failed)} bytes)`);
      t.match(JSON.stringify(failed), /output-limit: the error was cut/, `${on}: the error says it was cut`);

      const progress: unknown[] = [];
      const chatty = (await answer('chatty', (update) => void progress.push(update))) as CallToolResult;
      t.ok(progress.length > 0 && progress.length < 50, `${on}: progress passes until the cap, then is dropped (${progress.length} of 50)`);
      t.ok(bytes(progress) <= MAX_BYTES, `${on}: the notifications stay within the cap (${bytes(progress)} bytes)`);
      t.match(JSON.stringify(chatty.content), /progress notifications were dropped past the limit/, `${on}: the result says so`);
      t.match(JSON.stringify(chatty.content), 'done', `${on}: and still carries the answer`);
    }
  }
});
