import { LRUCache } from 'lru-cache';
import { Bm25fIndex, type Bm25fParameters, type TermHit } from './bm25f.js';
import type { ToolDocument } from './documents.js';
import { EXPANSION_WEIGHTS, QueryExpansion, type ExpansionWeights } from './expansion.js';

export interface RankingWeights {
  /** How each field counts, is length-normalised, and how fast a term's count saturates. */
  bm25f: Bm25fParameters;
  expansion: ExpansionWeights;
  /** A tool's score is multiplied by the number of the query's words it matched (each counting by the weight it matched at) to this power (MiniSearch's own coordination is the power 1, every word counting 1). */
  coordination: number;
}

/**
 * Chosen on the development half of the judged set (test/fixtures/tool-search/judged-queries.json)
 * with bench/tool-search.ts, by a coordinate search over each weight in turn; the test half
 * is only scored. The name counts no more than the description: tool names are mostly
 * common verbs ("get", "list", "create"), and a higher weight let them outrank the words
 * that say what a tool is about. A slow saturation (k 5) over the fields together, and no
 * lower bound for a mere match (d 0), let a tool that has a word where it matters outrank
 * one that mentions it once in passing.
 */
export const RANKING: RankingWeights = {
  bm25f: {
    fields: { name: 1, title: 0.45, summary: 1.5, description: 0.8, params: 0.4, about: 2 },
    b: { name: 0.9, title: 0.9, summary: 0.6, description: 0.75, params: 0.75, about: 0.9 },
    k: 5,
    d: 0,
  },
  expansion: EXPANSION_WEIGHTS,
  coordination: 1.25,
};

export interface Ranked {
  id: string;
  server: string;
  tool: string;
  score: number;
  /** The words of the query that matched, a word brought in as "memory (for remember)". */
  matched: string[];
}

/**
 * The ranking itself, apart from the hub: BM25F over the tools' fields, for the
 * words of the query and, weaker, the words WordNet and the software vocabulary bring in for
 * them, in one sum: a tool that has the very words asked comes first, and one that has
 * only their synonyms is still found.
 */
export class Ranker {
  readonly #weights: RankingWeights;
  readonly #expansion: QueryExpansion;
  readonly #index: Bm25fIndex;
  /** Each term's hits over the whole index, emptied whenever the index changes. */
  readonly #termHits = new LRUCache<string, readonly TermHit[]>({ maxSize: HITS_KEPT, sizeCalculation: (hits) => hits.length + 1 });

  constructor(weights: RankingWeights = RANKING, expansion = new QueryExpansion(weights.expansion)) {
    this.#weights = weights;
    this.#expansion = expansion;
    this.#index = new Bm25fIndex(weights.bm25f);
  }

  get documentCount(): number {
    return this.#index.documentCount;
  }

  addAll(documents: readonly ToolDocument[]): void {
    for (const document of documents) this.#index.add(document);
    this.#termHits.clear();
  }

  discardAll(ids: readonly string[]): void {
    for (const id of ids) this.#index.remove(id);
    this.#termHits.clear();
  }

  /**
   * The tools for `query`, best first, those `keep` accepts only. Each word of the query
   * counts once, by the best of its terms for the tool (the word itself, or a relative at
   * its weight): summed, a word's forty relatives would let a long description outrank a
   * tool that has the one word asked.
   */
  rank(query: string, keep: (server: string, tool: string) => boolean, limit: number): Ranked[] {
    // A query is some seventy terms once expanded: each term's scores are kept until the
    // index changes (they do not depend on who asks), and who may see a tool is applied to
    // the totals, so a repeated word costs a lookup, not a search.
    const termScores = (term: string): readonly TermHit[] => {
      let found = this.#termHits.get(term);
      if (found === undefined) {
        found = this.#index.hits(term);
        this.#termHits.set(term, found);
      }
      return found;
    };
    // Per tool, the query's words it matched, each by the best of its terms there; the
    // word being summed is kept on the tool itself (`word`), not in a map of its own, and
    // "why" is put in words for the tools returned only: a query touches hundreds of tools.
    const total = new Map<string, Candidate>();
    const touched: Candidate[] = [];
    const words = this.#expansion.words(query);
    words.forEach(({ terms }, word) => {
      for (const [term, { weight, via }] of terms) {
        for (const hit of termScores(term)) {
          const score = hit.score * weight;
          let entry = total.get(hit.id);
          if (entry === undefined) total.set(hit.id, (entry = { hit, score: 0, coverage: 0, matched: [], word: -1, best: 0, weight: 0, via: undefined }));
          if (entry.word !== word) {
            if (score <= 0) continue;
            entry.word = word;
            touched.push(entry);
          } else if (entry.best >= score) continue;
          entry.best = score;
          entry.weight = weight;
          entry.via = via;
        }
      }
      for (const entry of touched) {
        entry.score += entry.best;
        entry.coverage += entry.weight;
        entry.matched.push({ word, via: entry.via });
      }
      touched.length = 0;
    });
    // With the number of the query's words it matched, each word counting by the weight it matched at.
    const ranked = [...total.values()];
    for (const entry of ranked) entry.score *= entry.coverage ** this.#weights.coordination;
    ranked.sort((a, b) => b.score - a.score || (a.hit.id < b.hit.id ? -1 : a.hit.id > b.hit.id ? 1 : 0));
    const out: Ranked[] = [];
    for (const { hit, score, matched } of ranked) {
      if (out.length >= limit) break;
      if (!keep(hit.server, hit.tool)) continue;
      const asked = (word: number) => words[word]?.asked ?? '';
      out.push({ id: hit.id, server: hit.server, tool: hit.tool, score, matched: matched.map(({ word, via }) => (via === undefined ? asked(word) : `${via} (for ${asked(word)})`)) });
    }
    return out;
  }

  close(): void {
    this.#expansion.close();
  }
}

/** A tool a query's words found, while they are summed. */
interface Candidate {
  hit: TermHit;
  score: number;
  coverage: number;
  matched: { word: number; via: string | undefined }[];
  /** The word being summed, and its best term for this tool so far. */
  word: number;
  best: number;
  weight: number;
  via: string | undefined;
}

/** Hits kept over all terms (the least recently used terms go first): some 8 MB at most. */
const HITS_KEPT = 100_000;
