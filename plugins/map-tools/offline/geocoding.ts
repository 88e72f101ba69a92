import type { AreaOutlines } from './areas.js';
import type { FeatureStore } from './features.js';
import { haversineM } from './geo.js';
import { placeLabel } from './labels.js';
import { CONCEPTS, STOPWORDS, STREET_WORDS } from './lexicon.js';
import { ADDRESS, CONCEPT_NAMES, inCountries, OTHER_NAME, type PlaceIndex } from './places.js';
import { editDistance, normalize, tokens } from './text.js';

/** Matches less sure than this are not answers: the tools say "no match in the loaded map" instead of naming the least bad place. */
export const MIN_CONFIDENCE = 0.6;
/** Two matches with one label closer than this are one place (an address node inside its building, say). */
const SAME_PLACE_M = 500;
/** A place this far outside an area still gains a little from a query naming the area (its outline may be rough). */
const AREA_NEAR_M = 1000;
/** How far a place drawn only as a point reaches, by its `place` value, when it has no outline. */
const PLACE_RADIUS_M: Readonly<Record<string, number>> = {
  city: 5000,
  town: 3000,
  municipality: 3000,
  village: 1500,
  island: 2000,
  borough: 1500,
  suburb: 1000,
  quarter: 700,
  neighbourhood: 400,
  hamlet: 400,
  locality: 300,
  isolated_dwelling: 150,
  square: 100,
};
/** An administrative level from which a boundary is a municipality (or finer): a postcode's addresses are placed in one. */
const MUNICIPALITY_LEVEL = 7;
const SETTLEMENTS = new Set(['city', 'town', 'village', 'municipality', 'hamlet']);
/**
 * How much a query word is worth: a word that names the place or says its kind ("airport":
 * a place that is none is not the one asked for) counts twice a word that says where it is
 * (an area, a postcode).
 */
const NAME_WEIGHT = 2;
const PLACING_WEIGHT = 1;
/** How much of a match's confidence rests on its name being said whole, when the query names a place / only describes it. */
const NAME_SHARE = 0.6;
const DESCRIPTION_NAME_SHARE = 0.15;
/** Another name (`alt_name`, `old_name`, …) read the same is a little less sure than the place's own. */
const OTHER_NAME_FACTOR = 0.95;
/** Several places named partly by the query and as well as each other: the query names none of them in particular. */
const AMBIGUOUS_FACTOR = 0.8;
const AMBIGUOUS_MARGIN = 0.05;
/** How a query word matches a word of a name. */
const QUALITY = { exact: 1, inflection: 0.9, completion: 0.85, cognate: 0.8, typo: 0.95 } as const;
/** Shared stems: at least this long, and this share of the shorter word ("oceanographic" and "océanographique"). */
const STEM_MIN = 5;
const STEM_SHARE = 2 / 3;
/** geocoder_b: a misspelt word is within two edits and this similarity (1 − edits / the longer length). */
const TYPO_MIN_SIMILARITY = 0.75;
/** A place name word that a query may leave out counts this much as said: a street's "Avenue", an area's name in a place's. */
const OPTIONAL_WORD = 0.75;
/** A kind of place said by a name word ("Plage …") rather than a tag is a little less sure. */
const CONCEPT_BY_NAME = 0.9;
/** A query word found in the place's address (its city or postcode) rather than its name. */
const CONTEXT = 0.9;

export interface PlaceMatch {
  place: number;
  /** The element the match names (for a street of several ways, the way at its middle). */
  feature: number;
  lat: number;
  lon: number;
  label: string;
  /** How surely this is the place the query names, 0 to 1; never below `MIN_CONFIDENCE`. */
  confidence: number;
}

export interface SearchOptions {
  /** Tolerate misspelt words (geocoder_b). */
  fuzzy: boolean;
  limit: number;
  language: string;
  countryCodes?: readonly string[];
}

/** An area a query can name: a place or a boundary, with its outlines or, lacking them, a reach around its point. */
interface Area {
  place: number;
  outlines: number[];
  radiusM: number;
  municipality: boolean;
}

interface QueryWord {
  text: string;
  weight: number;
  /** Says what the place is called (not a kind, an area or a postcode). */
  naming: boolean;
  /** Vocabulary words it matches, with how well. */
  matches: Map<number, number>;
  concepts: readonly number[];
  /** The areas its phrase names. */
  areas?: readonly Area[];
  /** The postcode its phrase is. */
  postcode?: string;
}

interface Scored {
  place: number;
  confidence: number;
  /** How much of the best key's name the query said (1: all of it). */
  said: number;
  exact: boolean;
  /** 2 when a name reads as the whole query, 1 as its first comma-separated part ("Monte-Carlo, Monaco"). */
  identity: number;
  unsaid: number;
}

/** A query as read: its significant words with their roles, and its texts to compare names with. */
interface Query {
  words: QueryWord[];
  /** Every word, stop words too, commas left out. */
  whole: string;
  first: string;
}

/**
 * Geocoding over the place index, one ranking for both geocoders: every query word must
 * be accounted for by the place's names (in any language, own names before other names),
 * its kind (`./lexicon.ts`: "beach" for `natural=beach` or a "Plage …"), an area the query
 * names that holds it ("Fontvieille"), its postcode, or its address. Words that name the
 * place or its kind weigh twice the words that place it (an area, a postcode), and a
 * match is surer the more of the place's name the query says. geocoder_b adds misspelt
 * words on top (edit distance).
 * Matches below `MIN_CONFIDENCE` are dropped, so a place the map does not hold gets no
 * answer rather than the least bad name.
 */
export class PlaceSearch {
  /** Areas by the significant words of each of their names ("monte carlo", "condamine"). */
  readonly #areas = new Map<string, Area[]>();
  #longestAreaName = 1;
  /** Area places tagged with a postcode, and the other places with it, by normalized postcode. */
  readonly #postcodes = new Map<string, { areas: number[]; places: number[] }>();
  readonly #postcodeAreas = new Map<string, readonly number[]>();
  /** Vocabulary words that name areas: in a place's name, optional to a query ("de Monaco"). */
  readonly #areaWords = new Set<number>();
  /** The kinds a query word names. */
  readonly #conceptsOfWord = new Map<string, number[]>();
  /** Per kind, its words that are in the vocabulary: places named with them are of the kind too. */
  readonly #conceptVocabulary: number[][];

  constructor(
    private readonly index: PlaceIndex,
    private readonly features: FeatureStore,
    private readonly outlines: AreaOutlines,
  ) {
    const conceptWords = CONCEPT_NAMES.map((name) => [...new Set(CONCEPTS[name]!.words.map(normalize))]);
    conceptWords.forEach((words, concept) => {
      for (const word of words) this.#conceptsOfWord.set(word, [...(this.#conceptsOfWord.get(word) ?? []), concept]);
    });
    this.#conceptVocabulary = conceptWords.map((words) => words.map((word) => index.wordId(word)).filter((word) => word >= 0));
    this.#indexAreasAndPostcodes();
  }

  search(query: string, options: SearchOptions): PlaceMatch[] {
    const parsed = this.#analyse(query, options.fuzzy);
    const { words } = parsed;
    if (words.length === 0) return [];
    const naming = words.some((word) => word.naming);
    // Whether a place lies in an area costs the most: first every candidate's best case
    // (in the area), then the real score of the best cases in turn, while they can still
    // reach the top (enough of them for the limit, places that are one, and rivals).
    const bounds: Scored[] = [];
    for (const place of this.#candidates(words)) {
      const bound = this.#score(place, parsed, naming, true);
      if (bound && bound.confidence >= MIN_CONFIDENCE) bounds.push(bound);
    }
    bounds.sort((a, b) => b.confidence - a.confidence);
    const enough = 3 * options.limit + 5;
    const best: number[] = [];
    const scored: Scored[] = [];
    for (const bound of bounds) {
      if (best.length === enough && bound.confidence < best[0]! - AMBIGUOUS_MARGIN) break;
      const score = words.some((word) => word.areas) ? this.#score(bound.place, parsed, naming, false) : bound;
      if (!score) continue;
      scored.push(score);
      let at = 0;
      while (at < best.length && best[at]! < score.confidence) at++;
      best.splice(at, 0, score.confidence);
      if (best.length > enough) best.shift();
    }
    this.#order(scored);
    if (naming) this.#doubtAmbiguous(scored);
    return this.#finish(scored, options);
  }

  /**
   * The query's words with their roles: postcodes and area names first (longest phrases),
   * then kinds, the rest names. An area's name that is all the first comma-separated part
   * says ("Monaco", "Monte-Carlo, Monaco") names that area rather than placing another place in it.
   */
  #analyse(query: string, fuzzy: boolean): Query {
    const parts = query.split(',').map(tokens);
    const raw = parts.flat();
    const significant = raw.filter((word) => !STOPWORDS.has(word));
    const firstPart = parts.find((part) => part.length > 0) ?? [];
    const firstEnd = firstPart.filter((word) => !STOPWORDS.has(word)).length;
    const words: QueryWord[] = significant.map((text, i) => ({
      text,
      weight: 0,
      naming: true,
      matches: this.#wordMatches(text, fuzzy, i === significant.length - 1),
      concepts: this.#conceptsOfWord.get(text) ?? [],
    }));
    const taken = new Array<boolean>(words.length).fill(false);
    for (let length = Math.min(4, words.length); length >= 1; length--) {
      for (let start = 0; start + length <= words.length; start++) {
        if (taken.slice(start, start + length).some(Boolean)) continue;
        const phrase = significant.slice(start, start + length).join(' ');
        const postcode = this.#postcodes.has(phrase) ? phrase : undefined;
        const areas = postcode === undefined && length <= this.#longestAreaName ? this.#areas.get(phrase) : undefined;
        if (postcode === undefined && !areas) continue;
        for (let i = start; i < start + length; i++) {
          taken[i] = true;
          Object.assign(words[i]!, { naming: false, weight: PLACING_WEIGHT / length, ...(postcode !== undefined ? { postcode } : { areas }) });
        }
      }
    }
    const named = words.slice(0, firstEnd);
    if (named.length > 0 && named.every((word) => word.areas)) for (const word of named) Object.assign(word, { weight: 0, areas: undefined });
    for (const word of words) {
      if (word.weight > 0) continue;
      word.naming = word.concepts.length === 0;
      word.weight = NAME_WEIGHT;
    }
    return { words, whole: raw.join(' '), first: firstPart.join(' ') };
  }

  /** The vocabulary words a query word matches, and how well: the word, its inflections and stems, the completion of the last word, typos. */
  #wordMatches(text: string, fuzzy: boolean, last: boolean): Map<number, number> {
    const index = this.index;
    const matches = new Map<number, number>();
    const keep = (word: number, quality: number) => {
      if ((matches.get(word) ?? 0) < quality) matches.set(word, quality);
    };
    const exact = index.wordId(text);
    if (exact >= 0) keep(exact, QUALITY.exact);
    const numeric = /^\d+$/.test(text);
    if (numeric) return matches;
    if (text.length >= STEM_MIN) {
      const [first, end] = index.prefixRange(text.slice(0, STEM_MIN));
      for (let word = first; word < end; word++) {
        const other = index.vocabulary[word]!;
        const quality = stemQuality(text, other);
        if (quality > 0) keep(word, quality);
      }
    }
    if (last && text.length >= 2) {
      const [first, end] = index.prefixRange(text);
      for (let word = first; word < end; word++) keep(word, QUALITY.completion);
    }
    if (fuzzy && text.length >= 4) {
      for (const { word, dice } of index.wordsSharingTrigrams(text)) {
        if (dice < 0.3) continue;
        const other = index.vocabulary[word]!;
        const edits = editDistance(text, other);
        const similarity = 1 - edits / Math.max(text.length, other.length);
        if (edits <= 2 && similarity >= TYPO_MIN_SIMILARITY) keep(word, QUALITY.typo * similarity);
      }
    }
    return matches;
  }

  /** Places that account for a query word other than by lying in an area it names: by a name, a kind or a postcode. */
  #candidates(words: readonly QueryWord[]): Set<number> {
    const candidates = new Set<number>();
    const add = (places: ArrayLike<number>) => {
      for (let i = 0; i < places.length; i++) candidates.add(places[i]!);
    };
    for (const word of words) {
      for (const match of word.matches.keys()) add(this.index.placesWith(match));
      for (const concept of word.concepts) {
        add(this.index.placesOfConcept(concept));
        for (const named of this.#conceptVocabulary[concept]!) add(this.index.placesWith(named));
      }
      if (word.postcode !== undefined) add(this.#postcodeArea(word.postcode));
    }
    return candidates;
  }

  /** The best reading of a place against the query, over its keys (as if it lay in every area the query names, for a bound). */
  #score(place: number, query: Query, naming: boolean, inEveryArea: boolean): Scored | undefined {
    const index = this.index;
    const { words } = query;
    const total = words.reduce((sum, word) => sum + word.weight, 0);
    // What does not depend on the key: kind, area, postcode, address.
    const other = words.map((word) => this.#describes(place, word, inEveryArea));
    let best: Scored | undefined;
    for (let k = index.keyStart[place]!; k < index.keyStart[place + 1]!; k++) {
      const text = index.keys[k]!;
      const keyWords = index.textWords.subarray(index.textWordStart[text], index.textWordStart[text + 1]);
      let covered = 0;
      let sum = 0;
      let saidWords = 0;
      let significantWords = 0;
      let unsaid = 0;
      for (const keyWord of keyWords) {
        const spelled = index.vocabulary[keyWord]!;
        if (STOPWORDS.has(spelled)) continue;
        significantWords++;
        let said = 0;
        for (const word of words) said = Math.max(said, word.matches.get(keyWord) ?? 0);
        if (said < 1 && this.#saysKind(keyWord, words, place)) said = 1;
        if (said < OPTIONAL_WORD && ((index.isStreet[place] === 1 && STREET_WORDS.has(spelled)) || this.#areaWords.has(keyWord))) said = OPTIONAL_WORD;
        if (said === 0) unsaid++;
        saidWords += said;
      }
      words.forEach((word, i) => {
        let named = 0;
        for (const keyWord of keyWords) named = Math.max(named, word.matches.get(keyWord) ?? 0);
        const score = Math.max(named, other[i]!);
        if (named > 0) covered++;
        sum += word.weight * score;
      });
      const coverage = sum / total;
      const said = significantWords === 0 ? 1 : saidWords / significantWords;
      const share = naming ? NAME_SHARE : DESCRIPTION_NAME_SHARE;
      const confidence = coverage * (1 - share + share * said) * (index.keyKinds[k] === OTHER_NAME ? OTHER_NAME_FACTOR : 1);
      const exact = covered === words.length && unsaid === 0 && significantWords === words.length;
      const spelled = index.texts[text]!;
      const identity = spelled === query.whole ? 2 : spelled === query.first ? 1 : 0;
      if (!best || confidence > best.confidence || (confidence === best.confidence && (identity > best.identity || (identity === best.identity && exact && !best.exact)))) {
        best = { place, confidence, said, exact, identity, unsaid };
      }
    }
    if (best && this.#isPostcodeArea(place, words)) best = { ...best, confidence: Math.max(best.confidence, words.reduce((sum, word, i) => sum + word.weight * other[i]!, 0) / total), said: 1 };
    return best;
  }

  /** How a query word describes a place apart from its names: its kind, an area holding it, its postcode, its address. */
  #describes(place: number, word: QueryWord, inEveryArea: boolean): number {
    const index = this.index;
    let score = 0;
    for (const concept of word.concepts) {
      if (index.hasConcept(place, concept)) return 1;
      if (this.#namedAs(place, concept)) score = Math.max(score, CONCEPT_BY_NAME);
    }
    if (word.areas) score = Math.max(score, inEveryArea ? 1 : this.#inAreas(place, word.areas));
    if (word.postcode !== undefined && this.#postcodeArea(word.postcode).includes(place)) return 1;
    for (const [match, quality] of word.matches) if (index.hasWord(place, match)) score = Math.max(score, CONTEXT * quality);
    return score;
  }

  /** Whether one of the place's names holds a word of a kind ("Cathédrale …" is a cathedral). */
  #namedAs(place: number, concept: number): boolean {
    const index = this.index;
    for (let i = index.wordStart[place]!; i < index.wordStart[place + 1]!; i++) if (index.conceptsOfWord(index.words[i]!).includes(concept)) return true;
    return false;
  }

  /** Whether a name word says a kind of place the query asks for and the place is ("plage" for "beach"). */
  #saysKind(keyWord: number, words: readonly QueryWord[], place: number): boolean {
    const kinds = this.index.conceptsOfWord(keyWord);
    for (const word of words) {
      for (const concept of word.concepts) if (kinds.includes(concept) && (this.index.hasConcept(place, concept) || this.#namedAs(place, concept))) return true;
    }
    return false;
  }

  /** 1 inside one of the areas, less the farther outside. */
  #inAreas(place: number, areas: readonly Area[]): number {
    const lat = this.index.lat[place]!;
    const lon = this.index.lon[place]!;
    const outlined = areas.filter((area) => area.outlines.length > 0);
    let best = 0;
    for (const area of outlined.length > 0 ? outlined : areas) {
      if (area.place === place) return 1;
      if (area.outlines.length > 0) {
        const distanceM = Math.min(...area.outlines.map((outline) => this.outlines.distanceM(outline, lat, lon, AREA_NEAR_M)));
        best = Math.max(best, distanceM === 0 ? 1 : 0.5 * Math.max(0, 1 - distanceM / AREA_NEAR_M));
      } else {
        const distanceM = haversineM(lat, lon, this.index.lat[area.place]!, this.index.lon[area.place]!);
        best = Math.max(best, distanceM <= area.radiusM ? 1 - (0.3 * distanceM) / area.radiusM : 0.5 * Math.max(0, 1 - (distanceM - area.radiusM) / AREA_NEAR_M));
      }
    }
    return best;
  }

  #isPostcodeArea(place: number, words: readonly QueryWord[]): boolean {
    return words.some((word) => word.postcode !== undefined && this.#postcodeArea(word.postcode).includes(place));
  }

  /**
   * The areas a postcode stands for: those tagged with it; else the municipality whose
   * outline holds most of the addresses with it (98000 is Monaco, though nothing is tagged so).
   */
  #postcodeArea(postcode: string): readonly number[] {
    const known = this.#postcodeAreas.get(postcode);
    if (known) return known;
    const entry = this.#postcodes.get(postcode);
    let areas = entry?.areas ?? [];
    if (areas.length === 0 && entry) {
      const municipalities = [...this.#areas.values()].flat().filter((area, i, all) => area.municipality && area.outlines.length > 0 && all.indexOf(area) === i);
      let most = 0;
      for (const area of municipalities) {
        const held = entry.places.filter((place) => area.outlines.some((outline) => this.outlines.contains(outline, this.index.lat[place]!, this.index.lon[place]!))).length;
        if (held > most) [most, areas] = [held, [area.place]];
      }
    }
    this.#postcodeAreas.set(postcode, areas);
    return areas;
  }

  #order(scored: Scored[]): void {
    const index = this.index;
    scored.sort(
      (a, b) =>
        b.confidence - a.confidence ||
        b.identity - a.identity ||
        Number(b.exact) - Number(a.exact) ||
        index.importance[b.place]! - index.importance[a.place]! ||
        a.unsaid - b.unsaid ||
        index.feature[a.place]! - index.feature[b.place]!,
    );
  }

  /** When the best match is a partial name and another place is named as partly and as well, neither is sure. */
  #doubtAmbiguous(scored: Scored[]): void {
    const [best] = scored;
    if (!best || best.said >= 1) return;
    const label = (place: number) => this.features.value(this.index.feature[place]!, this.features.pool.id('name'));
    const rival = scored.find(
      (other) =>
        other !== best &&
        other.said < 1 &&
        other.confidence >= best.confidence - AMBIGUOUS_MARGIN &&
        label(other.place) !== label(best.place) &&
        haversineM(this.index.lat[best.place]!, this.index.lon[best.place]!, this.index.lat[other.place]!, this.index.lon[other.place]!) >= SAME_PLACE_M,
    );
    if (!rival) return;
    for (const entry of scored) if (entry.said < 1) entry.confidence *= AMBIGUOUS_FACTOR;
    this.#order(scored);
  }

  /** Best first, sure enough, one result per place on the ground, within the country filter, trimmed to the limit. */
  #finish(scored: readonly Scored[], options: SearchOptions): PlaceMatch[] {
    const countries = options.countryCodes?.map((code) => code.toLowerCase());
    const kept: PlaceMatch[] = [];
    for (const { place, confidence } of scored) {
      if (confidence < MIN_CONFIDENCE) break;
      const feature = this.index.feature[place]!;
      const tags = this.features.tagsOf(feature);
      if (countries?.length && !inCountries(tags, countries)) continue;
      const match = { place, feature, lat: this.index.lat[place]!, lon: this.index.lon[place]!, label: placeLabel(tags, options.language), confidence: Math.min(1, confidence) };
      if (kept.some((other) => other.label === match.label && haversineM(other.lat, other.lon, match.lat, match.lon) < SAME_PLACE_M)) continue;
      kept.push(match);
      if (kept.length >= options.limit) break;
    }
    return kept;
  }

  #indexAreasAndPostcodes(): void {
    const { index, features, outlines } = this;
    const pool = features.pool;
    const key = (name: string) => pool.id(name);
    const [placeKey, boundaryKey, levelKey, postcodeKey, postalCodeKey] = ['place', 'boundary', 'admin_level', 'addr:postcode', 'postal_code'].map(key) as [number, number, number, number, number];
    const outlinesOf = new Map<number, number[]>();
    for (let outline = 0; outline < outlines.count; outline++) {
      const feature = outlines.feature[outline]!;
      outlinesOf.set(feature, [...(outlinesOf.get(feature) ?? []), outline]);
    }
    for (let place = 0; place < index.size; place++) {
      const feature = index.feature[place]!;
      const placeValue = features.value(feature, placeKey);
      const boundary = features.value(feature, boundaryKey);
      const isArea = (placeValue !== undefined && placeValue in PLACE_RADIUS_M) || boundary === 'administrative' || boundary === 'postal_code';
      const postcode = features.value(feature, postcodeKey) ?? features.value(feature, postalCodeKey);
      if (postcode !== undefined) {
        const normal = normalize(postcode);
        const entry = this.#postcodes.get(normal) ?? { areas: [], places: [] };
        this.#postcodes.set(normal, entry);
        (isArea ? entry.areas : entry.places).push(place);
      }
      if (!isArea) continue;
      const level = Number(features.value(feature, levelKey));
      const area: Area = {
        place,
        outlines: outlinesOf.get(feature) ?? [],
        radiusM: placeValue === undefined ? 0 : (PLACE_RADIUS_M[placeValue] ?? 0),
        municipality: SETTLEMENTS.has(placeValue ?? '') || (boundary === 'administrative' && level >= MUNICIPALITY_LEVEL && level <= 8),
      };
      if (area.outlines.length === 0 && area.radiusM === 0) continue;
      for (let k = index.keyStart[place]!; k < index.keyStart[place + 1]!; k++) {
        if (index.keyKinds[k] === ADDRESS) continue;
        const text = index.keys[k]!;
        const significant = Array.from(index.textWords.subarray(index.textWordStart[text], index.textWordStart[text + 1])).filter((word) => !STOPWORDS.has(index.vocabulary[word]!));
        if (significant.length === 0) continue;
        const name = significant.map((word) => index.vocabulary[word]!).join(' ');
        const list = this.#areas.get(name) ?? [];
        if (!list.includes(area)) list.push(area);
        this.#areas.set(name, list);
        this.#longestAreaName = Math.max(this.#longestAreaName, significant.length);
        for (const word of significant) this.#areaWords.add(word);
      }
    }
  }
}

/** How well two different words share a stem: an inflection ("jardins", "princesse" for "princess") or a cognate ("oceanographic"). */
function stemQuality(query: string, word: string): number {
  if (query === word) return QUALITY.exact;
  const shorter = Math.min(query.length, word.length);
  let common = 0;
  while (common < shorter && query[common] === word[common]) common++;
  if (common === shorter && Math.abs(query.length - word.length) <= 2 && shorter >= 4) return QUALITY.inflection;
  return common >= STEM_MIN && common >= STEM_SHARE * shorter ? QUALITY.cognate : 0;
}
