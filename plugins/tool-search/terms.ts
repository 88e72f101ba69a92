import { LRUCache } from 'lru-cache';
import { stemmer } from 'stemmer';

/*
 * How tool text becomes search terms, the same for the index and for queries: identifiers
 * are split where people split them (`get_file-contents`, `listIssues`, `HTTPServer`), every
 * word is lower-cased and stemmed (Porter, `stemmer`), and the commonest English words are
 * dropped so that a question in plain words ranks by the words that carry its meaning.
 */

// A short hand-kept list: the stop-word packages carry hundreds of words per language,
// among them ones that matter in tool names ("first", "new", "open", "show").
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'can',
  'do',
  'does',
  'for',
  'from',
  'how',
  'i',
  'if',
  'in',
  'into',
  'is',
  'it',
  'its',
  'me',
  'my',
  'of',
  'on',
  'or',
  's',
  't',
  'that',
  'the',
  'this',
  'to',
  'use',
  'used',
  'using',
  'want',
  'was',
  'what',
  'when',
  'which',
  'will',
  'with',
  'you',
  'your',
]);

/** A term longer than this is noise (a hash, an encoded blob): left out. */
const MAX_TERM_LENGTH = 40;

/** Splits text and identifiers into words: at anything not a letter or digit, at `_` and `-`, and where the case turns. */
export function tokenize(text: string): string[] {
  return text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Stems by word: tool texts share a small vocabulary, and stemming is most of an index build. '' stands for a word left out. */
const terms = new LRUCache<string, string>({ max: 20_000 });

/** One word as a search term: lower-cased and stemmed, or null for a stop word. */
export function processTerm(word: string): string | null {
  let term = terms.get(word);
  if (term === undefined) {
    const lower = word.toLowerCase();
    term = STOP_WORDS.has(lower) || lower.length > MAX_TERM_LENGTH ? '' : stemmer(lower);
    terms.set(word, term);
  }
  return term === '' ? null : term;
}
