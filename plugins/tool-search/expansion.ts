import { LRUCache } from 'lru-cache';
import { SOFTWARE_SYNONYMS } from './vocabulary.js';
import { processTerm, tokenize } from './terms.js';
import { WordNet, type Relation } from './wordnet.js';

/** How much a word brought in counts beside a word asked (1), by where it came from. Chosen on the development half of the judged set (bench/tool-search.ts). */
export interface ExpansionWeights {
  synonym: number;
  hypernym: number;
  derived: number;
  antonym: number;
  gloss: number;
  software: number;
  /** Each sense of a word after its commonest counts this much less (the second sense times 1 - decay, and so on). */
  senseDecay: number;
  /** At most this many terms brought in per word, the strongest first (then the commonest senses first): each costs a lookup in the index. */
  maxRelatives: number;
}

export const EXPANSION_WEIGHTS: ExpansionWeights = { synonym: 0.3, hypernym: 0.2, derived: 0.2, antonym: 0, gloss: 0, software: 0.6, senseDecay: 0, maxRelatives: 16 };

/** One word of a query and the search terms that stand for it: the word itself (weight 1) and what it brings in (weaker). */
export interface QueryWord {
  asked: string;
  /** By search term (stemmed as the index is): its weight and, for a term brought in, the word it came as. */
  terms: Map<string, { weight: number; via?: string }>;
}

/** Gloss words that say nothing of a tool: WordNet's definitions are full of them. */
const GLOSS_NOISE = new Set([
  'something',
  'someone',
  'thing',
  'things',
  'one',
  'make',
  'cause',
  'act',
  'certain',
  'especially',
  'usually',
  'etc',
  'not',
  'other',
  'more',
  'have',
  'has',
  'been',
  'who',
  'whom',
]);

const SOFTWARE_GROUPS = new Map<string, string[]>();
for (const group of SOFTWARE_SYNONYMS) {
  for (const word of group) SOFTWARE_GROUPS.set(word, [...(SOFTWARE_GROUPS.get(word) ?? []), ...group.filter((other) => other !== word)]);
}

/**
 * Bridges the words of a query to the words tools use: each word of the query brings in
 * its WordNet relatives (synonyms, hypernyms, derived forms, antonyms, its definition's
 * words) and its software synonyms, each as a weaker term. WordNet is opened at the first
 * search that needs it, never at start, and what a word brings in is kept (a few hundred
 * words cover what agents ask).
 */
export class QueryExpansion {
  readonly #weights: ExpansionWeights;
  readonly #wordnet: WordNet;
  readonly #related = new LRUCache<string, Map<string, { weight: number; via: string }>>({ max: 5_000 });

  constructor(weights: ExpansionWeights = EXPANSION_WEIGHTS, wordnet = new WordNet()) {
    this.#weights = weights;
    this.#wordnet = wordnet;
  }

  /** The words of a query that carry meaning (not stop words), each with its search terms. */
  words(query: string): QueryWord[] {
    const out: QueryWord[] = [];
    const seen = new Set<string>();
    for (const word of tokenize(query).map((part) => part.toLowerCase())) {
      const own = processTerm(word);
      if (own === null || seen.has(own)) continue;
      seen.add(own);
      const terms = new Map<string, { weight: number; via?: string }>([[own, { weight: 1 }]]);
      if (!/^\d+$/.test(word)) for (const [term, related] of this.#relatives(word)) if (!terms.has(term)) terms.set(term, related);
      out.push({ asked: word, terms });
    }
    return out;
  }

  /** What one word brings in, by search term. */
  #relatives(word: string): Map<string, { weight: number; via: string }> {
    let found = this.#related.get(word);
    if (found) return found;
    found = new Map();
    const add = (text: string, relation: Relation | 'software', sense = 0) => {
      const weight = this.#weights[relation] * Math.max(0, 1 - this.#weights.senseDecay * sense);
      if (weight <= 0) return;
      for (const part of tokenize(text)) {
        const lower = part.toLowerCase();
        const term = processTerm(lower);
        if (term === null || (relation === 'gloss' && GLOSS_NOISE.has(lower))) continue;
        const before = found.get(term);
        if (before === undefined || before.weight < weight) found.set(term, { weight, via: lower });
      }
    };
    for (const other of SOFTWARE_GROUPS.get(word) ?? []) add(other, 'software');
    for (const { word: related, relation, sense } of this.#wordnet.related(word)) add(related.replaceAll('_', ' '), relation, sense);
    const own = processTerm(word);
    if (own !== null) found.delete(own);
    const strongest = new Map([...found].sort(([, a], [, b]) => b.weight - a.weight).slice(0, this.#weights.maxRelatives));
    this.#related.set(word, strongest);
    return strongest;
  }

  close(): void {
    this.#wordnet.close();
  }
}
