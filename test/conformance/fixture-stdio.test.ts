import t from 'tap';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CONFORMANCE_FIXTURE } from '../helpers/conformance-fixture.js';

// The stdio form of the conformance fixture, which the hub runs as a `stdio` child.
const REVISIONS = [
  { name: '2025-11-25', options: {}, era: 'legacy' },
  { name: '2026-07-28', options: { versionNegotiation: { mode: { pin: '2026-07-28' } } }, era: 'modern' },
] as const;

for (const revision of REVISIONS) {
  t.test(`a ${revision.name} client lists and calls its tools over stdio`, async (t) => {
    const client = new Client({ name: 'fixture-test', version: '1.0.0' }, revision.options);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CONFORMANCE_FIXTURE], stderr: 'pipe' }));
    t.teardown(() => client.close());
    t.equal(client.getProtocolEra(), revision.era);
    t.match(client.getServerVersion(), { name: 'conformance-fixture' });
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    for (const name of ['test_simple_text', 'test_tool_with_progress', 'test_sampling', 'test_input_required_result_elicitation', 'json_schema_2020_12_tool']) {
      t.ok(names.includes(name), `${name} is listed`);
    }
    const result = await client.callTool({ name: 'test_image_content', arguments: {} });
    t.match(result.content, [{ type: 'image', mimeType: 'image/png' }]);
  });
}
