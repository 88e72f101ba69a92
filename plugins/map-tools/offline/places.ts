import type { ElementRef, ElementStore } from './elements.js';
import { haversineM } from './geo.js';
import { placeLabel } from './labels.js';
import type { Tags } from './reader.js';
import { normalize, similarity, tokens, trigrams } from './text.js';

/** One named or addressed element, with its normalized names and address as search keys. */
export interface Place {
  ref: ElementRef;
  lat: number;
  lon: number;
  tags: Tags;
  /** Normalized names in every language, then the normalized street address. */
  keys: string[];
  /** Every token of every key, of the city and of the postcode. */
  words: Set<string>;
  importance: number;
}

export interface PlaceMatch {
  place: Place;
  label: string;
  score: number;
}

export interface PlaceQuery {
  limit: number;
  language: string;
  countryCodes?: readonly string[];
}

const NAME_KEY = /^(name|name:[a-z]{2,3}(-[A-Za-z]+)?|alt_name|official_name|short_name|loc_name|int_name)$/;
/** Two matches with one label closer than this are one place (a street split into many ways). */
const SAME_PLACE_M = 500;
const FUZZY_MIN_SIMILARITY = 0.6;

const IMPORTANCE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  place: { country: 40, state: 35, city: 30, town: 25, village: 20, suburb: 15, quarter: 14, neighbourhood: 12, square: 12, locality: 8 },
  boundary: { administrative: 20 },
  tourism: { museum: 15, attraction: 14, hotel: 8, viewpoint: 8 },
  leisure: { stadium: 15, park: 10, sports_centre: 8, marina: 10 },
  amenity: { place_of_worship: 9, townhall: 12, casino: 14, theatre: 10, hospital: 10, university: 10 },
  historic: { castle: 14, monument: 10 },
  railway: { station: 14 },
};

function importanceOf(tags: Tags, kind: ElementRef['kind']): number {
  let score = 0;
  for (const [key, values] of Object.entries(IMPORTANCE)) {
    const value = tags[key];
    if (value !== undefined) score = Math.max(score, values[value] ?? 4);
  }
  if (tags.highway) score = Math.max(score, 5);
  if (tags.wikidata || tags.wikipedia) score += 8;
  if (tags['addr:housenumber'] && !tags.name) score = Math.max(score, 3);
  return score + (kind === 'node' ? 0 : 1);
}

/**
 * The geocoding index: a token index for exact and prefix matching (geocoder_a) and a
 * trigram index scored by edit distance for typo-tolerant matching (geocoder_b).
 */
export class PlaceIndex {
  readonly places: Place[] = [];
  /** Token → places holding it, as sorted place numbers. */
  readonly #postings = new Map<string, number[]>();
  /** All tokens sorted, for prefix lookups by binary search. */
  #sortedTokens: string[] = [];
  /** Trigram → keys holding it; a key number is `place * KEY_STRIDE + key position`. */
  readonly #grams = new Map<string, number[]>();
  /** Key number → how many distinct trigrams the key has. */
  readonly #gramCounts = new Map<number, number>();

  constructor(store: ElementStore) {
    const add = (ref: ElementRef, tags: Tags | undefined) => {
      if (!tags) return;
      const names = Object.keys(tags).filter((key) => NAME_KEY.test(key)).map((key) => normalize(tags[key]!)).filter((name) => name !== '');
      const address = tags['addr:housenumber'] ? normalize(`${tags['addr:housenumber']} ${tags['addr:street'] ?? tags['addr:place'] ?? ''}`) : '';
      if (names.length === 0 && address === '') return;
      const centre = store.centre(ref);
      if (!centre) return;
      const keys = [...new Set(names)];
      if (address !== '') keys.push(address);
      const words = new Set([...keys, normalize(tags['addr:city'] ?? ''), normalize(tags['addr:postcode'] ?? '')].flatMap((key) => (key === '' ? [] : key.split(' '))));
      this.places.push({ ref, lat: centre.lat, lon: centre.lon, tags, keys, words, importance: importanceOf(tags, ref.kind) });
    };
    for (const [index, tags] of store.taggedNodes()) add({ kind: 'node', index }, tags);
    for (let index = 0; index < store.wayCount; index++) add({ kind: 'way', index }, store.tagsOf({ kind: 'way', index }));
    for (let index = 0; index < store.relationCount; index++) add({ kind: 'relation', index }, store.tagsOf({ kind: 'relation', index }));

    this.places.forEach((place, number) => {
      for (const word of place.words) push(this.#postings, word, number);
      place.keys.forEach((key, position) => {
        if (position >= KEY_STRIDE) return;
        const grams = trigrams(key);
        this.#gramCounts.set(number * KEY_STRIDE + position, grams.size);
        for (const gram of grams) push(this.#grams, gram, number * KEY_STRIDE + position);
      });
    });
    this.#sortedTokens = [...this.#postings.keys()].sort();
  }

  /**
   * geocoder_a: places whose names and address hold every word of the query's first
   * comma-separated part (the last word may be a prefix); later parts only rank.
   */
  search(query: string, options: PlaceQuery): PlaceMatch[] {
    const parts = query.split(',').map(tokens).filter((part) => part.length > 0);
    const required = parts[0] ?? [];
    if (required.length === 0) return [];
    const context = parts.slice(1).flat();
    const phrase = required.join(' ');
    const lists = required.map((word, i) => (i === required.length - 1 ? this.#withPrefix(word) : this.#postings.get(word) ?? []));
    const rarest = lists.reduce((a, b) => (b.length < a.length ? b : a));
    const matches: PlaceMatch[] = [];
    for (const number of new Set(rarest)) {
      const place = this.places[number]!;
      const last = required[required.length - 1]!;
      if (!required.every((word, i) => place.words.has(word) || (i === required.length - 1 && [...place.words].some((w) => w.startsWith(last))))) continue;
      let score = place.importance;
      if (place.keys.some((key) => key === phrase)) score += 50;
      else if (place.keys.some((key) => key.startsWith(phrase))) score += 20;
      const shortest = Math.min(...place.keys.map((key) => key.split(' ').length));
      score -= Math.max(0, shortest - required.length);
      score += 5 * context.filter((word) => place.words.has(word)).length;
      matches.push({ place, label: placeLabel(place.tags, options.language), score });
    }
    return this.#finish(matches, options);
  }

  /** geocoder_b: places whose names are close to the query by trigrams and edit distance. */
  fuzzy(query: string, options: PlaceQuery): PlaceMatch[] {
    const phrase = tokens(query).join(' ');
    if (phrase === '') return [];
    const queryGrams = trigrams(phrase);
    const shared = new Map<number, number>();
    for (const gram of queryGrams) for (const key of this.#grams.get(gram) ?? []) shared.set(key, (shared.get(key) ?? 0) + 1);
    const words = phrase.split(' ');
    const best = new Map<number, PlaceMatch>();
    for (const [key, count] of shared) {
      const number = Math.floor(key / KEY_STRIDE);
      const place = this.places[number]!;
      const text = place.keys[key % KEY_STRIDE]!;
      const dice = (2 * count) / (queryGrams.size + (this.#gramCounts.get(key) ?? 0));
      if (dice < 0.25) continue;
      const keyWords = text.split(' ');
      // Each query word against its closest word of the name, weighted by length.
      let weighted = 0;
      let total = 0;
      for (const word of words) {
        const closest = Math.max(...keyWords.map((candidate) => similarity(word, candidate)));
        weighted += closest * word.length;
        total += word.length;
      }
      const wordScore = weighted / total;
      const whole = similarity(phrase, text);
      const closeness = Math.max(wordScore * 0.8 + dice * 0.2, whole);
      if (closeness < FUZZY_MIN_SIMILARITY) continue;
      const score = closeness * 100 + place.importance / 2;
      const previous = best.get(number);
      if (!previous || previous.score < score) best.set(number, { place, label: placeLabel(place.tags, options.language), score });
    }
    return this.#finish([...best.values()], options);
  }

  #withPrefix(prefix: string): number[] {
    let low = 0;
    let high = this.#sortedTokens.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#sortedTokens[middle]! < prefix) low = middle + 1;
      else high = middle;
    }
    const result: number[] = [];
    for (let i = low; i < this.#sortedTokens.length && this.#sortedTokens[i]!.startsWith(prefix); i++) result.push(...(this.#postings.get(this.#sortedTokens[i]!) ?? []));
    return result;
  }

  /** Best first, one result per place on the ground, within the country filter, trimmed to the limit. */
  #finish(matches: PlaceMatch[], options: PlaceQuery): PlaceMatch[] {
    const countries = options.countryCodes?.map((code) => code.toLowerCase());
    matches.sort((a, b) => b.score - a.score || a.place.ref.index - b.place.ref.index);
    const kept: PlaceMatch[] = [];
    for (const match of matches) {
      if (countries?.length && !inCountries(match.place.tags, countries)) continue;
      if (kept.some((other) => other.label === match.label && haversineM(other.place.lat, other.place.lon, match.place.lat, match.place.lon) < SAME_PLACE_M)) continue;
      kept.push(match);
      if (kept.length >= options.limit) break;
    }
    return kept;
  }
}

/** How many keys per place take part in fuzzy matching. */
const KEY_STRIDE = 64;

function push(index: Map<string, number[]>, key: string, value: number): void {
  const list = index.get(key);
  if (!list) index.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

/** Places that name no country pass: an extract rarely tags it, and dropping them would hide most matches. */
function inCountries(tags: Tags, countries: readonly string[]): boolean {
  const code = (tags['addr:country'] ?? tags['is_in:country_code'] ?? tags['ISO3166-1'] ?? tags['ISO3166-1:alpha2'])?.toLowerCase();
  return code === undefined || countries.includes(code);
}
