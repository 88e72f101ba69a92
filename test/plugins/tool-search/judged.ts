import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { CORPUS_FOLDER, type JudgedQuery, type ServerFixture } from './corpus.js';
import { toolDocument } from '../../../plugins/tool-search/documents.js';
import { QueryExpansion } from '../../../plugins/tool-search/expansion.js';
import { RANKING, Ranker, type RankingWeights } from '../../../plugins/tool-search/ranking.js';
import { WordNet } from '../../../plugins/tool-search/wordnet.js';

/*
 * The judged set of issue 56 (test/fixtures/tool-search/judged-queries.json) and how a
 * ranking is scored on it: top-1, top-3 and MRR, for the plugin's ranking and for a plain
 * BM25 baseline on the same catalog. Used by bench/tool-search.ts and relevance.test.ts.
 */

export interface HalvedQuery extends JudgedQuery {
  half: 'dev' | 'test';
}

export function judgedSet(): HalvedQuery[] {
  return (JSON.parse(readFileSync(join(CORPUS_FOLDER, 'judged-queries.json'), 'utf8')) as { queries: HalvedQuery[] }).queries;
}

/** A ranking: the `server/tool` ids for a query, best first. */
export type Rank = (query: string) => string[];

export interface Scores {
  queries: number;
  top1: number;
  top3: number;
  mrr: number;
  /** The queries with no right tool in the first three, with what came first instead. */
  misses: string[];
}

/** How far a ranking has the right tools: a query counts at the first of its `expected` or `acceptable` tools. */
export function score(rank: Rank, queries: readonly JudgedQuery[]): Scores {
  let top1 = 0;
  let top3 = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const judged of queries) {
    const right = new Set([...judged.expected, ...(judged.acceptable ?? [])]);
    const ranked = rank(judged.query);
    const at = ranked.findIndex((id) => right.has(id));
    if (at === 0) top1 += 1;
    if (at >= 0 && at < 3) top3 += 1;
    else misses.push(`"${judged.query}": ${ranked.slice(0, 3).join(', ') || 'nothing'} (wanted ${judged.expected.join(' or ')}${at >= 0 ? `, ranked ${at + 1}` : ''})`);
    if (at >= 0) reciprocal += 1 / (at + 1);
  }
  const count = queries.length;
  return { queries: count, top1: top1 / count, top3: top3 / count, mrr: reciprocal / count, misses };
}

/** What the hub's index holds of a server of the catalog served as the tests serve it (its name and its package's name, no instructions). */
const about = (fixture: ServerFixture): string => `${fixture.server}\n${fixture.package}`;

const RANKED = 50;

/** The plugin's ranking over the catalog. */
export function pluginRank(fixtures: readonly ServerFixture[], weights: RankingWeights = RANKING, wordnet?: WordNet): { rank: Rank; ranker: Ranker } {
  const ranker = new Ranker(weights, new QueryExpansion(weights.expansion, wordnet));
  for (const fixture of fixtures) ranker.addAll(fixture.tools.map((tool) => toolDocument(fixture.server, about(fixture), tool)));
  return { ranker, rank: (query) => ranker.rank(query, () => true, RANKED).map((hit) => `${hit.server}/${hit.tool}`) };
}

/** Plain BM25 over name and description: MiniSearch's own tokenizer (spaces and punctuation) and lower case, no stemming, no stop words, no weights, default parameters. */
export function baselineRank(fixtures: readonly ServerFixture[]): Rank {
  const search = new MiniSearch<{ id: string; name: string; description: string }>({ fields: ['name', 'description'] });
  search.addAll(fixtures.flatMap((fixture) => fixture.tools.map((tool) => ({ id: `${fixture.server}/${tool.name}`, name: tool.name, description: tool.description ?? '' }))));
  return (query) =>
    search
      .search(query)
      .slice(0, RANKED)
      .map((result) => result.id as string);
}
