import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient, REVISIONS } from '../../helpers/clients.js';
import { conformanceStdioEntry, startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';

// Issue 55.5: the hub relays a child's error as the child wrote it: the code and the
// message a client reads through /<name>/mcp are those it reads from the child directly,
// on both revisions, for an http and a stdio child, with no prefix added on the way.
//
// Road x channel covered: /<name>/mcp on 2026-07-28 and 2025-11-25 x JSON-RPC errors of
// prompts/get, resources/read and tools/call.

async function errorOf(client: Client, use: string): Promise<string> {
  const attempt =
    use === 'prompts/get'
      ? client.getPrompt({ name: 'no_such_prompt' })
      : use === 'resources/read'
        ? client.readResource({ uri: 'test://no-such-resource' })
        : client.callTool({ name: 'no_such_tool', arguments: {} });
  return attempt.then(
    (answer) => `answered ${JSON.stringify(answer).slice(0, 80)}`,
    (error: unknown) => (ProtocolError.isInstance(error) ? `${error.code} ${error.message}` : String(error)),
  );
}

t.test("a child's error text reaches the caller as the child wrote it", async (t) => {
  const direct = await startConformanceFixture(t);
  const { url } = await startTestHub(t, {
    config: { mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry() }, plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } } },
  });
  for (const revision of REVISIONS) {
    const directly = await connectClient(t, direct, revision);
    for (const use of ['prompts/get', 'resources/read', 'tools/call']) {
      const expected = await errorOf(directly, use);
      t.notMatch(expected, /^answered/, `${revision} ${use}: directly an error`);
      for (const name of ['over-http', 'over-stdio']) {
        const seen = await errorOf(await connectClient(t, `${url}/${name}/mcp`, revision), use);
        t.equal(seen, expected, `${name} on ${revision}, ${use}: the code and text as directly`);
        t.notMatch(seen, /MCP error/, `${name} on ${revision}, ${use}: no prefix added`);
      }
    }
  }
});
