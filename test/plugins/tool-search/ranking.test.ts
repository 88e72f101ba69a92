import t from 'tap';
import { corpus } from './corpus.js';
import { judgedSet, pluginRank } from './judged.js';

/*
 * Issue 56: the ranker's contract, on the real catalog and the judged queries. Who may see a
 * tool (`keep`) is asked down the ranked list only until `limit` tools are kept: the answer
 * must be exactly the full ranking with the others taken out, in the same order, with the
 * same scores and the same reasons, whatever `keep` leaves out and whatever the limit.
 */

t.test('keep and limit take tools out of the one ranking, never reorder or rescore it', async (t) => {
  const { ranker } = pluginRank(corpus());
  t.teardown(() => ranker.close());
  const everyone = () => true;
  const queries = judgedSet().filter((_, at) => at % 7 === 0);
  // Every other server out, then every other tool, then all but one server.
  const filters: [string, (server: string, tool: string) => boolean][] = [
    ['every other server', (server) => server.charCodeAt(0) % 2 === 0],
    ['every other tool', (_, tool) => tool.length % 2 === 1],
    ['the git server only', (server) => server === 'git'],
  ];
  let compared = 0;
  for (const { query } of queries) {
    const full = ranker.rank(query, everyone, 400);
    t.ok(
      full.every((hit, at) => at === 0 || (full[at - 1]?.score ?? 0) >= hit.score),
      `"${query}": best first`,
    );
    t.ok(
      full.every((hit) => hit.matched.length > 0),
      `"${query}": each hit says which words matched`,
    );
    for (const [name, keep] of filters) {
      for (const limit of [1, 3, 8]) {
        const expected = full.filter((hit) => keep(hit.server, hit.tool)).slice(0, limit);
        const asked: string[] = [];
        const got = ranker.rank(query, (server, tool) => (asked.push(`${server}/${tool}`), keep(server, tool)), limit);
        t.same(got, expected, `"${query}", ${name}, limit ${limit}`);
        t.ok(asked.length <= full.length, 'keep is asked at most once a tool');
        compared += expected.length;
      }
    }
  }
  t.ok(compared > 100, `the filters left tools to compare (${compared})`);
});
