import { ProtocolError } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { conformanceStdioEntry, startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { metaError, structuredMeta } from '../../plugins/meta-tools/helpers.js';
import { waitFor } from '../children/helpers.js';

// Issue 55.2: what a 2025-11-25 caller can call on /<name>/mcp is decided by what the child
// shows that revision from the first request on, not once the hub has served a 2025 list:
// the conformance fixture with LISTS_BY_ERA=1 lists `test_modern_only` to 2026-07-28
// clients only, and a fresh hub's first 2025 request is a call of it.
//
// Road x channel covered: /<name>/mcp on 2025-11-25 (raw JSON-RPC, the plain road, and the
// SDK client) x the call's answer (an unknown tool, as directly), on a fresh hub and after a
// 2026-07-28 list; /hub on both revisions x list_tools, get_tool_schema and call_tool.

const LISTS_BY_ERA = { LISTS_BY_ERA: '1' };
const CALL = { name: 'test_modern_only', arguments: {} };

t.test("a 2025-11-25 caller's first call of a 2026-only tool is refused as the child refuses it", async (t) => {
  const direct = await startConformanceFixture(t, 'standard', 'http', LISTS_BY_ERA);
  const directly = await rawRequest(direct, '2025-11-25', 'tools/call', CALL);
  t.ok(directly.error, 'directly, a 2025-11-25 client cannot call the modern-only tool');
  for (const first of ['raw', 'sdk', 'after a 2026 list'] as const) {
    const { url } = await startTestHub(t, {
      config: {
        mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry('standard', LISTS_BY_ERA) },
        plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
      },
    });
    for (const name of ['over-http', 'over-stdio']) {
      const endpoint = `${url}/${name}/mcp`;
      if (first === 'after a 2026 list')
        t.ok(
          (await (await connectClient(t, endpoint, '2026-07-28')).listTools()).tools.some((tool) => tool.name === CALL.name),
          `${name}: a 2026-07-28 caller is listed it`,
        );
      if (first === 'sdk') {
        const client = await connectClient(t, endpoint, '2025-11-25');
        const answer = await client.callTool(CALL).then(
          (result) => (result.isError ? 'tool error' : 'answered'),
          (error: unknown) => (ProtocolError.isInstance(error) ? `error ${error.code}` : String(error)),
        );
        t.equal(answer, `error ${directly.error?.code}`, `${name}, first request an SDK call: refused with the child's code`);
      } else {
        const answer = await rawRequest(endpoint, '2025-11-25', 'tools/call', CALL);
        t.equal(answer.error?.code, directly.error?.code, `${name}, ${first}: refused with the child's code`);
        t.notOk(answer.result, `${name}, ${first}: the tool did not run`);
      }
    }
  }
});

t.test("on /hub a 2025-11-25 caller is listed the child's 2025 tools and cannot call its 2026-only one", async (t) => {
  const direct = await startConformanceFixture(t, 'standard', 'http', LISTS_BY_ERA);
  const shown = new Map<string, string[]>();
  for (const revision of ['2026-07-28', '2025-11-25'] as const) shown.set(revision, (await (await connectClient(t, direct, revision)).listTools()).tools.map((tool) => tool.name).sort());
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry('standard', LISTS_BY_ERA) },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  // list_tools answers about an always-running server only once it is up (connected at start-up).
  await waitFor('the http child to be up', () => hub.children.get('over-http')?.status === 'up');
  // The 2025 caller comes first, on a fresh hub: nothing was listed to anyone before.
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    const hubClient = await connectClient(t, `${url}/hub`, revision);
    for (const server of ['over-http', 'over-stdio']) {
      const listed = await structuredMeta(t, hubClient, 'list_tools', { server });
      t.same((listed.tools as { name: string }[]).map((tool) => tool.name).sort(), shown.get(revision), `${server} on ${revision}: list_tools gives what the child lists to ${revision}`);
      if (revision === '2025-11-25') {
        t.match(await metaError(hubClient, 'get_tool_schema', { server, tool: CALL.name }), /Unknown tool/, `${server} on ${revision}: get_tool_schema does not know the 2026-only tool`);
        t.match(await metaError(hubClient, 'call_tool', { server, tool: CALL.name, arguments: {} }), /Unknown tool/, `${server} on ${revision}: call_tool does not run it`);
      } else {
        const result = await hubClient.callTool({ name: 'call_tool', arguments: { server, tool: CALL.name, arguments: {} } });
        t.notOk(result.isError, `${server} on ${revision}: call_tool runs it`);
      }
    }
  }
});
