import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProtocolError, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import t, { type Test } from 'tap';
import { fixture } from '../../core/children/helpers.js';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';
import { until } from '../virtual-servers/helpers.js';
import { githubToken, stdioClient } from './helpers.js';

/*
 * Issue 54, items 2 and 3, on the roads channels.test.ts and output-channels.test.ts do not
 * take: a virtual server's /<name>/mcp and hub-stdio's call_tool (on a stdio child and on
 * the virtual server), each on both revisions. One stdio child (fixtures/children/leaky.ts)
 * leaks a token through every channel and tries each way around a cap of 2048 bytes.
 *
 * | road x channel                           | result parts (text, resource, link) | structuredContent (keys too) | _meta, unknown field | JSON-RPC error message, data | progress during the call |
 * |------------------------------------------|-------------------------------------|------------------------------|----------------------|------------------------------|--------------------------|
 * | /<name>/mcp 2026-07-28, 2025-11-25       | channels / output-channels          | channels / output-channels   | channels / output-   | channels / output-channels   | channels / output-       |
 * | /hub call_tool, both                     | channels / output-channels          | channels                     | output-channels      | channels / output-channels   | channels / output-       |
 * | virtual /<name>/mcp, both                | here: redacted / cut                | here: redacted               | here: redacted / cut | here: redacted / cut         | here: redacted / capped  |
 * | hub-stdio call_tool (stdio child), both  | here: redacted / cut                | here: redacted               | here: cut            | here: redacted / cut         | here: redacted / capped  |
 * | hub-stdio call_tool (virtual), both      | here: redacted / cut                | here: redacted               | here: cut            | here: redacted / cut         | here: redacted / capped  |
 * | run_code's answer                        | channels (redacted); code-mode/output-limit (cut)                                                                                     |
 *
 * "redacted": guard-secrets, the token never reaches the caller and `[REDACTED:github]` is
 * where it was; "cut"/"capped": output-limit, within the cap with a notice. Logging
 * notifications are not relayed by the hub on any road. On call_tool the child's result
 * and error reach the caller as call_tool's own result, so "structuredContent" there is
 * the child's, carried inside it.
 */

const MAX_BYTES = 2048;
/** Room for the hub's own framing and the notice, which are outside the cap. */
const SLACK = 1024;
const REDACTED = '[REDACTED:github]';
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

type Road = (tool: string, onprogress: (progress: unknown) => void) => Promise<unknown>;

async function checkRoad(t: Test, on: string, call: Road, direct: boolean, secret: string): Promise<void> {
  const answer = async (tool: string) => {
    const progress: unknown[] = [];
    const said = await call(tool, (update) => void progress.push(update)).catch((error: unknown) =>
      ProtocolError.isInstance(error) ? { code: error.code, message: error.message, data: error.data } : { thrown: String(error) },
    );
    return { said, progress };
  };
  const chatty = await answer('chatty');
  t.notMatch(JSON.stringify(chatty), secret.slice(4), `${on}: the token reaches the caller by no channel`);
  t.match(JSON.stringify(chatty.progress), `using ${REDACTED}`, `${on}: the progress notification arrives, redacted`);
  const result = chatty.said as CallToolResult & { extra?: string };
  if (direct) {
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
  } else {
    for (const part of [`text ${REDACTED}`, `GITHUB_TOKEN=${REDACTED}`, `value ${REDACTED}`]) t.match(JSON.stringify(result), part, `${on}: the result carries "${part}"`);
  }

  const failed = await answer('fail');
  t.notMatch(JSON.stringify(failed), secret.slice(4), `${on}: the error never carries the token`);
  if (direct)
    t.same(failed.said, { code: -32010, message: `upstream refused token ${REDACTED}`, data: { token: REDACTED, hint: 'kept' } }, `${on}: the error's message and data, redacted, its code kept`);
  else t.match(JSON.stringify(failed.said), `upstream refused token ${REDACTED}`, `${on}: the error as call_tool tells it, redacted`);

  const fat = await answer('fat_meta');
  t.ok(bytes(fat.said) <= MAX_BYTES + SLACK, `${on}: _meta and an unknown field of 40 KB do not pass whole (${bytes(fat.said)} bytes)`);
  t.match(JSON.stringify(fat.said), /output-limit: this result was cut/, `${on}: the notice says so`);
  const blocks = await answer('many_blocks');
  t.ok(bytes(blocks.said) <= MAX_BYTES + SLACK, `${on}: 3,000 tiny blocks are counted with their framing (${bytes(blocks.said)} bytes)`);
  t.match(JSON.stringify(blocks.said), /content blocks? left out/, `${on}: the notice says blocks were left out`);
  const long = await answer('long_error');
  t.ok(bytes(long.said) <= MAX_BYTES + SLACK, `${on}: a 40 KB error does not pass whole (${bytes(long.said)} bytes)`);
  t.match(JSON.stringify(long.said), /output-limit: the error was cut/, `${on}: the error says it was cut`);
  const flood = await answer('progress_flood');
  t.ok(flood.progress.length > 0 && flood.progress.length < 50, `${on}: progress passes until the cap, then is dropped (${flood.progress.length} of 50)`);
  t.ok(bytes(flood.progress) <= MAX_BYTES, `${on}: the notifications stay within the cap (${bytes(flood.progress)} bytes)`);
  t.match(JSON.stringify(flood.said), /progress notifications were dropped past the limit/, `${on}: the result says so`);
}

async function config(): Promise<{ config: Record<string, unknown>; configFile: string; folder: string; secret: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'channel-roads-'));
  const secret = githubToken();
  const config = {
    plugins: { 'oauth-as': false, 'map-tools': false, 'guard-secrets': true, 'output-limit': { maxBytes: MAX_BYTES } },
    mcpServers: {
      leaky: { command: process.execPath, args: [fixture('leaky')], env: { LEAKY_SECRET: secret } },
      kit: { type: 'virtual', tools: [{ server: 'leaky', tool: '*' }] },
    },
  };
  const configFile = join(folder, 'mcp.json');
  await writeFile(configFile, JSON.stringify(config));
  return { config, configFile, folder, secret };
}

const viaCallTool =
  (client: Client, server: string): Road =>
  (tool, onprogress) =>
    client.callTool({ name: 'call_tool', arguments: { server, tool, arguments: {} } }, { onprogress, timeout: 180_000 });

t.test('guard-secrets and output-limit on a virtual server, every channel, both revisions', async (t) => {
  const { config: hubConfig, secret } = await config();
  const { url, hub } = await startTestHub(t, { config: hubConfig });
  await hub.children.get('leaky')?.ensureUp();
  await until(() => hub.children.get('kit')?.findTool('chatty') !== undefined);
  for (const revision of REVISIONS) {
    const client = await connectClient(t, `${url}/kit/mcp`, revision);
    await checkRoad(t, `virtual /kit/mcp on ${revision}`, (tool, onprogress) => client.callTool({ name: tool, arguments: {} }, { onprogress }), true, secret);
  }
});

for (const revision of REVISIONS) {
  t.test(`guard-secrets and output-limit through hub-stdio on ${revision}, on a stdio child and a virtual server`, async (t) => {
    const { configFile, folder, secret } = await config();
    const client = await stdioClient(t, revision, configFile, join(folder, 'data'));
    await checkRoad(t, `hub-stdio call_tool leaky on ${revision}`, viaCallTool(client, 'leaky'), false, secret);
    await checkRoad(t, `hub-stdio call_tool kit on ${revision}`, viaCallTool(client, 'kit'), false, secret);
  });
}
