import type { CallToolResult } from '@modelcontextprotocol/client';
import t from 'tap';
import { corpus, judgedQueries, listingServer } from './corpus.js';
import type { SearchAnswer } from './helpers.js';
import { waitFor } from '../../core/children/helpers.js';
import { connectClient } from '../../helpers/clients.js';
import { startTestHub } from '../../helpers/hub.js';

/*
 * Issue 39: the judged relevance set. 300 real tool definitions of 23 public MCP servers,
 * each served verbatim by a server of its own behind a real hub, and 75 queries judged
 * before the ranking was tuned (test/fixtures/tool-search/README.md says how both were
 * made). A query hits when a right tool is among the first three of search_tools on /hub.
 */
const HIT_RATE = 0.9;

t.test('search_tools puts a right tool in the first three for at least 90 % of the judged queries', async (t) => {
  const servers = corpus();
  const toolCount = servers.reduce((sum, server) => sum + server.tools.length, 0);
  t.ok(toolCount >= 300, `${toolCount} real tool definitions`);
  const { url } = await startTestHub(t, {
    config: { plugins: { 'map-tools': false, 'tool-search': true } },
    setup: (hub) => {
      for (const fixture of servers) hub.servers.addInProcess(fixture.server, listingServer(fixture));
    },
  });
  const client = await connectClient(t, `${url}/hub`, '2026-07-28');
  await waitFor('every server to list its tools', async () => {
    const result = (await client.callTool({ name: 'list_servers', arguments: {} })) as CallToolResult;
    const listed = (result.structuredContent as { servers: { toolCount?: number }[] }).servers;
    return listed.reduce((sum, server) => sum + (server.toolCount ?? 0), 0) === toolCount;
  });

  const queries = judgedQueries();
  t.ok(queries.length >= 60, `${queries.length} judged queries`);
  const misses: string[] = [];
  for (const judged of queries) {
    const result = (await client.callTool({ name: 'search_tools', arguments: { query: judged.query, limit: 3 } })) as CallToolResult;
    const found = (result.structuredContent as unknown as SearchAnswer).tools.map((tool) => `${tool.server}/${tool.name}`);
    const right = new Set([...judged.expected, ...(judged.acceptable ?? [])]);
    if (!found.some((hit) => right.has(hit))) misses.push(`"${judged.query}": got ${found.join(', ') || 'nothing'}; wanted ${judged.expected.join(' or ')}`);
  }
  const rate = (queries.length - misses.length) / queries.length;
  t.comment(`top-3 hit rate: ${(rate * 100).toFixed(1)} % (${queries.length - misses.length} of ${queries.length})`);
  for (const miss of misses) t.comment(`miss: ${miss}`);
  t.ok(rate >= HIT_RATE, `top-3 hit rate ${(rate * 100).toFixed(1)} % is at least ${HIT_RATE * 100} %`);
});
