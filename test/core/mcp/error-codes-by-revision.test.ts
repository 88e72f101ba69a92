import { join } from 'node:path';
import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { conformanceStdioEntry, startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { fixtureEntry, tempDir, waitFor } from '../children/helpers.js';

// Issue 55.2, the error-code half: a child the hub speaks 2026-07-28 with may answer with a
// code 2025-11-25 does not define (-32021, a client capability missing); a 2025-11-25
// caller gets what the child answers a 2025-11-25 client for the same failure. The
// reverse, a 2025-11-25 child's bare -32002 (a resource it does not have), reaches a
// 2026-07-28 caller as -32602, the code that revision defines for it: the SDK's server
// maps it (its encode seam never emits -32002), and this test holds it so.
//
// Road x channel covered: /<name>/mcp on 2025-11-25 (the plain road, the SDK road, the SDK
// client) x a tool call's answer and a prompt's error; /hub's call_tool on 2025-11-25 x
// its answer; /<name>/mcp on 2026-07-28 x a resource read's error. The http child and the
// stdio child (asked to probe, so spoken to on 2026-07-28) both.

const MISSING = { name: 'test_missing_capability', arguments: {} };
const MODERN_ONLY_CODES = [-32020, -32021, -32022];

t.test("a child's 2026-07-28-only error reaches a 2025-11-25 caller as that revision answers the failure", async (t) => {
  const direct = await startConformanceFixture(t);
  const directly = await rawRequest(direct, '2025-11-25', 'tools/call', MISSING);
  t.equal(directly.result?.isError, true, 'directly, a 2025-11-25 caller gets a tool error');
  const directPrompt = await rawRequest(direct, '2025-11-25', 'prompts/get', { name: 'test_input_required_result_prompt' });
  t.ok(directPrompt.error, "directly, a 2025-11-25 caller's prompt that needs an answer fails");
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry() },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  for (const name of ['over-http', 'over-stdio']) {
    const endpoint = `${url}/${name}/mcp`;
    // The child is spoken to on 2026-07-28, where it answers this call -32021.
    const modern = await rawRequest(endpoint, '2026-07-28', 'tools/call', MISSING);
    t.equal(modern.error?.code, -32021, `${name}: a 2026-07-28 caller gets the child's -32021`);
    t.equal(hub.children.get(name)?.revision, '2026-07-28', `${name}: the hub speaks 2026-07-28 with the child`);
    for (const [road, meta] of [
      ['the plain road', undefined],
      ['the SDK road', { progressToken: 'sdk-road' }],
    ] as const) {
      const answer = await rawRequest(endpoint, '2025-11-25', 'tools/call', MISSING, meta ? { meta } : {});
      t.equal(answer.status, 200, `${name}, ${road}: HTTP 200, as directly`);
      t.notOk(answer.error, `${name}, ${road}: no JSON-RPC error (${JSON.stringify(answer.error)})`);
      t.equal(answer.result?.isError, true, `${name}, ${road}: a tool error, as directly`);
      t.match((answer.result?.content as { text: string }[] | undefined)?.[0]?.text, /capabilit/i, `${name}, ${road}: it says a capability is missing`);
    }
    const client = await connectClient(t, endpoint, '2025-11-25');
    const result = await client.callTool(MISSING);
    t.equal(result.isError, true, `${name}, the SDK client: a tool error`);
    const prompt = await rawRequest(endpoint, '2025-11-25', 'prompts/get', { name: 'test_input_required_result_prompt' });
    t.equal(prompt.error?.code, directPrompt.error?.code, `${name}: a prompt's missing capability is the code the child answers a 2025-11-25 client (${directPrompt.error?.code})`);
    t.equal(prompt.status, directPrompt.status, `${name}: with the same HTTP status`);

    const hubClient = await connectClient(t, `${url}/hub`, '2025-11-25');
    const viaHub = await hubClient.callTool({ name: 'call_tool', arguments: { server: name, tool: MISSING.name, arguments: {} } });
    const told = (viaHub.content as { text: string }[])[0]?.text ?? '';
    t.equal(viaHub.isError, true, `${name}, /hub call_tool: a tool error`);
    t.notOk(
      MODERN_ONLY_CODES.some((code) => told.includes(String(code))),
      `${name}, /hub call_tool: no 2026-only code in its text (${told})`,
    );
  }
});

t.test("a 2025-11-25 child's -32002 reaches a 2026-07-28 caller as -32602", async (t) => {
  const directory = await tempDir(t);
  const { url, hub } = await startTestHub(t, { config: { mcpServers: { legacy: fixtureEntry('legacy-resource-miss', join(directory, 'starts')) } } });
  const read = (revision: '2026-07-28', uri: string) => rawRequest(`${url}/legacy/mcp`, revision, 'resources/read', { uri }, { headers: { 'mcp-name': uri } });
  const present = await read('2026-07-28', 'test://present');
  t.same(present.result?.contents, [{ uri: 'test://present', text: 'here' }], 'the resource it has reads');
  await waitFor('the child to be up', () => hub.children.get('legacy')?.status === 'up');
  t.equal(hub.children.get('legacy')?.revision, '2025-11-25', 'the hub speaks 2025-11-25 with the child');
  const missing = await read('2026-07-28', 'test://absent');
  t.equal(missing.error?.code, -32602, '2026-07-28: -32602, not -32002');
  t.equal(missing.error?.message, 'Resource test://absent not found', "the child's words");
});
