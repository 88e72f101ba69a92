import type { LoggingMessageNotificationParams } from '@modelcontextprotocol/client';
import t, { type Test } from 'tap';
import { ApiTokens } from '../../../plugins/oauth-as/api-tokens.js';
import { collections } from '../../../plugins/oauth-as/records.js';
import { connectClient } from '../../helpers/clients.js';
import { conformanceStdioEntry, startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';

// Issue 55 (conformance through the hub): on 2025-11-25 the hub's endpoint is stateless, so
// a level a caller sets with `logging/setLevel` is kept by the hub for that caller (its API
// token here) and never set on the child, whose level would hold for every caller. During
// the caller's call the child's log messages reach it at that level and above, before the
// result; a caller who set none, or a higher one, hears none; another caller's level is its own.
//
// Road x channel covered: /<name>/mcp on 2025-11-25 x logging/setLevel's answer and the
// notifications during a call, with the child over http (spoken 2026-07-28: the level asked
// per request) and over stdio (spoken 2025-11-25: it logs as it does, the hub filters).

async function logsOfCall(t: Test, url: string, headers: Record<string, string>, level: 'info' | 'error' | undefined): Promise<{ logs: LoggingMessageNotificationParams[]; text: string | undefined }> {
  const client = await connectClient(t, url, '2025-11-25', headers);
  const logs: LoggingMessageNotificationParams[] = [];
  client.setNotificationHandler('notifications/message', (notification) => void logs.push(notification.params));
  if (level !== undefined) t.same(await client.setLoggingLevel(level), {}, `setLevel ${level} is answered with {}`);
  const result = await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
  return { logs, text: (result.content as { text?: string }[])[0]?.text };
}

t.test('a 2025-11-25 caller hears the child log at the level it set, and only it', async (t) => {
  const direct = await startConformanceFixture(t, 'standard');
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry('standard') },
      plugins: { 'oauth-as': true },
    },
    env: { HUB_PASSWORD: 'pw' },
  });
  const tokens = new ApiTokens(collections(hub.store), hub.settings.baseUrl);
  const [first, second] = await Promise.all([tokens.mint('first', 600), tokens.mint('second', 600)]);
  const one = { authorization: `Bearer ${first.token}` };
  const other = { authorization: `Bearer ${second.token}` };
  for (const child of ['over-http', 'over-stdio']) {
    const endpoint = `${url}/${child}/mcp`;
    const before = await logsOfCall(t, endpoint, other, undefined);
    t.equal(before.text, 'Logged three messages.', `${child}: the call's result`);
    t.same(before.logs, [], `${child}: a caller who set no level hears no log`);

    const heard = await logsOfCall(t, endpoint, one, 'info');
    t.same(
      heard.logs.map((log) => [log.level, log.data]),
      [
        ['info', 'Logging tool started'],
        ['info', 'Logging tool working'],
        ['info', 'Logging tool finished'],
      ],
      `${child}: the three messages, in order, before the result`,
    );
    t.equal(heard.text, 'Logged three messages.', `${child}: then the result`);

    const stillNone = await logsOfCall(t, endpoint, other, undefined);
    t.same(stillNone.logs, [], `${child}: another caller's level is not this one's`);

    const kept = await logsOfCall(t, endpoint, one, undefined);
    t.equal(kept.logs.length, 3, `${child}: the level holds for the caller's later requests (a new connection, the same token)`);

    const quiet = await logsOfCall(t, endpoint, one, 'error');
    t.same(quiet.logs, [], `${child}: at "error", info messages are filtered out`);
  }
  const onHub = await rawRequest(`${url}/hub`, '2025-11-25', 'logging/setLevel', { level: 'info' }, { headers: one });
  t.equal(onHub.error?.code, -32601, '/hub keeps no level: it has no log of its own to send');
  const invalid = await rawRequest(`${url}/over-http/mcp`, '2025-11-25', 'logging/setLevel', { level: 'loud' }, { headers: one });
  t.ok(invalid.error, 'a level that is none is refused (as the SDK refuses invalid params)');
});
