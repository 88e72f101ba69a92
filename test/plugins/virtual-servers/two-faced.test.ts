import t from 'tap';
import { connectClient } from '../../helpers/clients.js';
import { conformanceStdioEntry, startConformanceFixture } from '../../helpers/conformance-fixture.js';
import { startTestHub } from '../../helpers/hub.js';
import { rawRequest } from '../../helpers/raw.js';
import { metaError, structuredMeta } from '../meta-tools/helpers.js';
import { until } from './helpers.js';

// Issue 55.2 on kits: a virtual server over a member that lists other tools to each revision
// (the conformance fixture with LISTS_BY_ERA=1 lists `test_modern_only` to 2026-07-28
// clients only) shows each caller the member's face for the caller's own revision.
//
// Road x channel covered: the kit's /<name>/mcp on both revisions x tools/list and a call
// of the 2026-only tool; /hub on both revisions x list_tools and call_tool of the kit; the
// member as an http and as a stdio child (asked to probe, so spoken to on 2026-07-28).

const LISTS_BY_ERA = { LISTS_BY_ERA: '1' };
const MODERN_ONLY = 'test_modern_only';

t.test("each caller sees a kit member's face for its own revision", async (t) => {
  const direct = await startConformanceFixture(t, 'standard', 'http', LISTS_BY_ERA);
  const shown = new Map<string, string[]>();
  for (const revision of ['2026-07-28', '2025-11-25'] as const) shown.set(revision, (await (await connectClient(t, direct, revision)).listTools()).tools.map((tool) => tool.name).sort());
  t.ok(shown.get('2026-07-28')?.includes(MODERN_ONLY) && !shown.get('2025-11-25')?.includes(MODERN_ONLY), 'directly, the member lists the tool to 2026-07-28 only');
  const { url, hub } = await startTestHub(t, {
    config: {
      mcpServers: {
        'over-http': { type: 'http', url: direct },
        'over-stdio': { ...conformanceStdioEntry('standard', LISTS_BY_ERA), keepAlive: true },
        'kit-http': { type: 'virtual', tools: [{ server: 'over-http', tool: '*' }] },
        'kit-stdio': { type: 'virtual', tools: [{ server: 'over-stdio', tool: '*', prefix: 's_' }] },
      },
      plugins: { 'lifecycle-stdio': { versionNegotiation: 'auto' } },
    },
  });
  for (const member of ['over-http', 'over-stdio']) await hub.children.get(member)?.ensureUp();
  t.ok(
    await until(() => hub.children.get('kit-http')?.findTool(MODERN_ONLY) !== undefined && hub.children.get('kit-stdio')?.findTool(`s_${MODERN_ONLY}`) !== undefined),
    'the kits follow their members',
  );
  for (const [kit, prefix] of [
    ['kit-http', ''],
    ['kit-stdio', 's_'],
  ] as const) {
    const expected = (revision: string) => (shown.get(revision) ?? []).map((name) => `${prefix}${name}`).sort();
    for (const revision of ['2025-11-25', '2026-07-28'] as const) {
      const listed = (await (await connectClient(t, `${url}/${kit}/mcp`, revision)).listTools()).tools.map((tool) => tool.name).sort();
      t.same(listed, expected(revision), `${kit} /mcp on ${revision}: the member's ${revision} face`);
      const hubClient = await connectClient(t, `${url}/hub`, revision);
      const viaHub = await structuredMeta(t, hubClient, 'list_tools', { server: kit });
      t.same((viaHub.tools as { name: string }[]).map((tool) => tool.name).sort(), expected(revision), `${kit} /hub list_tools on ${revision}: the member's ${revision} face`);
    }
    const legacyCall = await rawRequest(`${url}/${kit}/mcp`, '2025-11-25', 'tools/call', { name: `${prefix}${MODERN_ONLY}`, arguments: {} });
    t.match(legacyCall.error?.message, /Unknown tool/, `${kit}: a 2025-11-25 caller cannot call the 2026-only tool`);
    t.notOk(legacyCall.result, `${kit}: it did not run`);
    const hubLegacy = await connectClient(t, `${url}/hub`, '2025-11-25');
    t.match(await metaError(hubLegacy, 'call_tool', { server: kit, tool: `${prefix}${MODERN_ONLY}`, arguments: {} }), /Unknown tool/, `${kit}: nor through /hub's call_tool`);
    const modernCall = await rawRequest(`${url}/${kit}/mcp`, '2026-07-28', 'tools/call', { name: `${prefix}${MODERN_ONLY}`, arguments: {} }, { headers: { 'mcp-name': `${prefix}${MODERN_ONLY}` } });
    t.notOk(modernCall.error, `${kit}: a 2026-07-28 caller calls it`);
  }
});
