import { FIELDS, type ToolDocument } from './documents.js';
import { processTerm, tokenize } from './terms.js';

type Field = (typeof FIELDS)[number];

export interface Bm25fParameters {
  /** How much one occurrence in each field counts, before saturation. */
  fields: Record<Field, number>;
  k: number;
  /** Length normalisation per field: 0 none, 1 full. */
  b: Record<Field, number>;
  /** BM25+'s lower bound: a matched document gets at least this times the term's idf. */
  d: number;
}

export interface TermHit {
  id: string;
  server: string;
  tool: string;
  score: number;
}

interface Entry {
  id: string;
  server: string;
  tool: string;
  lengths: number[];
  terms: string[];
}

/** A term's count in each field of a tool, packed into one number (8 bits a field, at most 255: far past saturation), so that a posting is a small integer, not an array. */
const BITS = 8;
const MAX_COUNT = (1 << BITS) - 1;
const SHIFT = 2 ** BITS;
const countIn = (packed: number, at: number): number => Math.floor(packed / SHIFT ** at) % SHIFT;

/**
 * BM25F (Robertson and Zaragoza): a term's occurrences in every field of a tool are weighed
 * and length-normalised per field, then summed, and saturate once, together. Summed per
 * field as MiniSearch does, a word that a tool's name, title, first sentence and
 * description all repeat counts four times over, each saturating on its own, and a tool
 * that says what it is in every field outranks the one that has the word asked where it
 * matters. Written here: MiniSearch scores each field on its own, and wink-bm25-text-search
 * weighs fields but normalises one length per document and takes no document after its
 * consolidation, where a server's tool list changes at any time.
 */
export class Bm25fIndex {
  readonly #parameters: Bm25fParameters;
  readonly #documents = new Map<string, Entry>();
  /** By term: the tools that have it, with its count in each field (packed). */
  readonly #postings = new Map<string, Map<string, number>>();
  readonly #totalLengths = FIELDS.map(() => 0);

  constructor(parameters: Bm25fParameters) {
    this.#parameters = parameters;
  }

  get documentCount(): number {
    return this.#documents.size;
  }

  add(document: ToolDocument): void {
    if (this.#documents.has(document.id)) this.remove(document.id);
    const lengths = FIELDS.map(() => 0);
    const counts = new Map<string, number>();
    FIELDS.forEach((field, at) => {
      for (const word of tokenize(document[field])) {
        const term = processTerm(word);
        if (term === null) continue;
        lengths[at] = (lengths[at] ?? 0) + 1;
        const packed = counts.get(term) ?? 0;
        if (countIn(packed, at) < MAX_COUNT) counts.set(term, packed + 2 ** (BITS * at));
      }
      this.#totalLengths[at] = (this.#totalLengths[at] ?? 0) + (lengths[at] ?? 0);
    });
    for (const [term, count] of counts) {
      let posting = this.#postings.get(term);
      if (!posting) this.#postings.set(term, (posting = new Map<string, number>()));
      posting.set(document.id, count);
    }
    this.#documents.set(document.id, { id: document.id, server: document.server, tool: document.tool, lengths, terms: [...counts.keys()] });
  }

  remove(id: string): void {
    const entry = this.#documents.get(id);
    if (!entry) return;
    this.#documents.delete(id);
    entry.lengths.forEach((length, at) => (this.#totalLengths[at] = (this.#totalLengths[at] ?? 0) - length));
    for (const term of entry.terms) {
      const posting = this.#postings.get(term);
      posting?.delete(id);
      if (posting?.size === 0) this.#postings.delete(term);
    }
  }

  /** Every tool that has `term` (already a search term: lower-cased and stemmed), with its score. */
  hits(term: string): TermHit[] {
    const posting = this.#postings.get(term);
    if (!posting) return [];
    const { fields, k, b, d } = this.#parameters;
    const count = this.#documents.size;
    const idf = Math.log(1 + (count - posting.size + 0.5) / (posting.size + 0.5));
    const weights = FIELDS.map((field) => fields[field]);
    const norms = FIELDS.map((field) => b[field]);
    const averages = FIELDS.map((_, at) => (this.#totalLengths[at] ?? 0) / Math.max(1, count) || 1);
    const out: TermHit[] = [];
    for (const [id, packed] of posting) {
      const entry = this.#documents.get(id) as Entry;
      let weighted = 0;
      let rest = packed;
      for (let at = 0; rest > 0; at += 1) {
        const occurrences = rest % SHIFT;
        rest = Math.floor(rest / SHIFT);
        if (occurrences === 0) continue;
        const norm = norms[at] as number;
        weighted += ((weights[at] as number) * occurrences) / (1 - norm + (norm * (entry.lengths[at] as number)) / (averages[at] as number));
      }
      out.push({ id, server: entry.server, tool: entry.tool, score: idf * ((weighted * (k + 1)) / (k + weighted) + d) });
    }
    return out;
  }
}
