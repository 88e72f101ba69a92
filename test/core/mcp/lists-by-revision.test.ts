import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import t from 'tap';
import { connectClient, REVISIONS, type Revision } from '../../helpers/clients.js';
import { conformanceStdioEntry, startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { tempDir, waitFor } from '../children/helpers.js';

// Issue 44 F1: a child whose lists differ by revision (the conformance fixture with
// LISTS_BY_ERA=1 lists a tool, a resource and a prompt to 2026-07-28 clients only, as the
// suite's reference server does) is listed, and called, through the hub as it is directly.

const LISTS_BY_ERA = { LISTS_BY_ERA: '1' };

async function listsOf(client: Client): Promise<{ tools: string[]; resources: string[]; prompts: string[] }> {
  const [tools, resources, prompts] = await Promise.all([client.listTools(), client.listResources(), client.listPrompts()]);
  return {
    tools: tools.tools.map((tool) => tool.name).sort(),
    resources: resources.resources.map((resource) => resource.uri).sort(),
    prompts: prompts.prompts.map((prompt) => prompt.name).sort(),
  };
}

/** The error code, or whether a tool error or an answer came back, for one use of an item on `revision`. */
async function callOutcome(url: string, revision: Revision, method: string, params: Record<string, unknown>): Promise<string> {
  // 2026-07-28 names the item in a header too (the raw helper adds it for tools/call only).
  const named = method === 'tools/call' ? undefined : (params.uri ?? params.name);
  const answer = await rawRequest(url, revision, method, params, revision === '2026-07-28' && typeof named === 'string' ? { headers: { 'mcp-name': named } } : {});
  if (answer.error) return `error ${answer.error.code}`;
  return (answer.result as { isError?: boolean } | undefined)?.isError === true ? 'tool error' : 'answered';
}

t.test('F1: each revision sees the lists the child shows it, and may use only what they list', async (t) => {
  const direct = await startConformanceFixture(t, 'standard', 'http', LISTS_BY_ERA);
  const { url, dataPath, hub } = await startTestHub(t, {
    config: {
      mcpServers: { 'over-http': { type: 'http', url: direct }, 'over-stdio': conformanceStdioEntry('standard', LISTS_BY_ERA) },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  const seen = new Map<Revision, Awaited<ReturnType<typeof listsOf>>>();
  for (const revision of REVISIONS) seen.set(revision, await listsOf(await connectClient(t, direct, revision)));
  t.ok(seen.get('2026-07-28')?.tools.includes('test_modern_only'), 'directly, a 2026-07-28 client is listed the modern-only tool');
  t.notOk(seen.get('2025-11-25')?.tools.includes('test_modern_only'), 'directly, a 2025-11-25 client is not');

  const uses: [string, Record<string, unknown>][] = [
    ['tools/call', { name: 'test_modern_only', arguments: {} }],
    ['resources/read', { uri: 'test://modern-only' }],
    ['prompts/get', { name: 'test_modern_only_prompt' }],
  ];
  for (const revision of REVISIONS) {
    for (const name of ['over-http', 'over-stdio']) {
      const client = await connectClient(t, `${url}/${name}/mcp`, revision);
      t.same(await listsOf(client), seen.get(revision), `${name} on ${revision}: the tools, resources and prompts the child lists to this revision`);
      for (const [method, params] of uses) {
        const expected = await callOutcome(direct, revision, method, params);
        t.equal(await callOutcome(`${url}/${name}/mcp`, revision, method, params), expected, `${name} on ${revision}: ${method} of the modern-only item is ${expected}, as directly`);
      }
    }
  }
  t.equal(
    await callOutcome(direct, '2025-11-25', 'tools/call', { name: 'test_modern_only', arguments: {} }),
    'error -32602',
    'directly, a 2025-11-25 client calling the modern-only tool is told it does not exist',
  );

  await hub.children.snapshots?.flush();
  const snapshot = JSON.parse(readFileSync(join(dataPath, 'snapshots', 'over-stdio.json'), 'utf8')) as { faces?: Record<string, { unlisted?: Record<string, string[]> } | null> };
  t.same(
    snapshot.faces?.['2025-11-25']?.unlisted,
    { tools: ['test_modern_only'], resources: ['test://modern-only'], prompts: ['test_modern_only_prompt'] },
    'the snapshot keeps what the 2025-11-25 face does not list',
  );
});

t.test('F1: a child whose lists are the same on both revisions keeps no lists in its face (the fast path)', async (t) => {
  const { url, dataPath, hub } = await startTestHub(t, {
    config: { mcpServers: { same: conformanceStdioEntry('standard') }, plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } } },
  });
  const client = await connectClient(t, `${url}/same/mcp`, '2025-11-25');
  t.ok(
    (await client.listTools()).tools.some((tool) => tool.name === 'test_simple_text'),
    'listed as before',
  );
  await hub.children.snapshots?.flush();
  const snapshot = JSON.parse(readFileSync(join(dataPath, 'snapshots', 'same.json'), 'utf8')) as { faces?: Record<string, Record<string, unknown> | null> };
  const face = snapshot.faces?.['2025-11-25'];
  t.ok(face, 'the 2025-11-25 face was learnt');
  t.notOk(face?.lists, 'with no lists of its own');
  t.notOk(face?.unlisted, 'and nothing refused');
  t.equal(hub.children.get('same')?.listsDiffer, false, 'so calls are not checked against it');
});

t.test("F1: a list change the child announces has a face's own lists read again", async (t) => {
  const extra = join(await tempDir(t), 'extra-tool');
  const direct = await startConformanceFixture(t, 'standard', 'http', { ...LISTS_BY_ERA, EXTRA_TOOL_FILE: extra });
  const { url, hub } = await startTestHub(t, { config: { mcpServers: { changing: { type: 'http', url: direct } } } });
  const legacy = await connectClient(t, `${url}/changing/mcp`, '2025-11-25');
  t.notOk(
    (await legacy.listTools()).tools.some((tool) => tool.name === 'test_extra'),
    'the extra tool is not listed yet',
  );
  const child = hub.children.get('changing');
  t.ok(child?.knownFace('2025-11-25')?.lists, 'the 2025-11-25 face keeps lists of its own');

  await writeFile(extra, '');
  const modern = await connectClient(t, `${url}/changing/mcp`, '2026-07-28');
  await modern.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  await waitFor('the face with lists to be forgotten', () => child?.knownFace('2025-11-25') === undefined);
  const again = await connectClient(t, `${url}/changing/mcp`, '2025-11-25');
  const tools = (await again.listTools()).tools.map((tool) => tool.name);
  t.ok(tools.includes('test_extra'), 'a 2025-11-25 caller is listed the new tool');
  t.notOk(tools.includes('test_modern_only'), 'and still not the modern-only one');
});
