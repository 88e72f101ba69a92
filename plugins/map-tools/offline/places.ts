import type { FeatureStore } from './features.js';
import { haversineM, METERS_PER_DEGREE_LAT } from './geo.js';
import type { RoadGraph } from './graph.js';
import { Growable, lowerBound, sequence } from './growable.js';
import { placeLabel } from './labels.js';
import { normalize, similarity, tokens, trigrams } from './text.js';

/** What a place's search key is: its name (in any language), another name, or its street address. */
export const NAME = 1;
export const OTHER_NAME = 2;
export const ADDRESS = 3;

const NAME_KEY = /^(name|int_name|official_name|alt_name|old_name|short_name|loc_name)(:[a-z]{2,3}(-[A-Za-z]+)?)?$/;
/** Keys that are the feature's own name; the others (`alt_name`, `old_name`, …) rank below them. */
const OWN_NAME = new Set(['name', 'int_name', 'official_name']);
/** Two matches with one label closer than this are one place (an address node inside its building, say). */
const SAME_PLACE_M = 500;
/**
 * Ways with one name whose ends are this close are one street: the two carriageways of
 * a divided road, or pieces parted by a roundabout or a square with its own name.
 */
const SAME_STREET_M = 60;
const FUZZY_MIN_SIMILARITY = 0.6;

const IMPORTANCE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  place: { country: 40, state: 35, city: 30, town: 25, village: 20, suburb: 15, quarter: 14, neighbourhood: 12, square: 12, locality: 8 },
  boundary: { administrative: 20 },
  tourism: { museum: 15, attraction: 14, hotel: 8, viewpoint: 8 },
  leisure: { stadium: 15, park: 10, sports_centre: 8, marina: 10 },
  amenity: { place_of_worship: 9, townhall: 12, casino: 14, theatre: 10, hospital: 10, university: 10 },
  historic: { castle: 14, monument: 10 },
  railway: { station: 14 },
  highway: {
    motorway: 12, trunk: 12, primary: 11, secondary: 10, tertiary: 9, unclassified: 7, residential: 7, living_street: 7, pedestrian: 7,
    service: 5, footway: 4, path: 4, steps: 4, cycleway: 4, track: 4,
  },
};
/** Any other value of a key in the table above. */
const OTHER_VALUE_IMPORTANCE = 4;

export interface PlaceQuery {
  limit: number;
  language: string;
  countryCodes?: readonly string[];
}

export interface PlaceMatch {
  place: number;
  /** The element the match names (for a street of several ways, the way at its middle). */
  feature: number;
  lat: number;
  lon: number;
  label: string;
}

interface Candidate {
  place: number;
  /** Exact whole-query name 6 (other name 5), exact first-part name 4 (3), name prefix 2, all words 1; fuzzy: the score. */
  rank: number;
  context: number;
  extraWords: number;
}

/**
 * The geocoding index over every named or addressed feature. The ways of one street
 * (same name, sharing a node) are one place. Stored in columns: search keys are numbers
 * into a table of distinct normalized texts, words are numbers into the sorted word
 * list, and postings are compressed sparse rows. A token index answers geocoder_a (exact
 * and prefix words); a trigram index scored by edit distance answers geocoder_b.
 */
export class PlaceIndex {
  readonly feature: Int32Array;
  readonly lat: Float64Array;
  readonly lon: Float64Array;
  readonly importance: Float32Array;
  /** Place p's keys are `keys/keyKinds[keyStart[p] .. keyStart[p + 1]]` (numbers into `texts`). */
  readonly keyStart: Uint32Array;
  readonly keys: Uint32Array;
  readonly keyKinds: Uint8Array;
  /** Place p's words, sorted: `words[wordStart[p] .. wordStart[p + 1]]` (numbers into `vocabulary`). */
  readonly wordStart: Uint32Array;
  readonly words: Uint32Array;
  /** Distinct normalized search keys. */
  readonly texts: string[];
  /** Every word, sorted, so a prefix is a range of word numbers. */
  readonly vocabulary: string[];
  readonly #wordPlaceStart: Uint32Array;
  readonly #wordPlaces: Uint32Array;
  readonly #gramIds: Map<string, number>;
  readonly #gramTextStart: Uint32Array;
  readonly #gramTexts: Uint32Array;
  readonly #textGramCount: Uint16Array;
  readonly #textPlaceStart: Uint32Array;
  readonly #textPlaces: Uint32Array;

  constructor(
    private readonly features: FeatureStore,
    graph: RoadGraph,
  ) {
    const built = new PlaceBuilder(features, graph).build();
    this.feature = built.feature;
    this.lat = built.lat;
    this.lon = built.lon;
    this.importance = built.importance;
    this.keyStart = built.keyStart;
    this.keys = built.keys;
    this.keyKinds = built.keyKinds;
    this.texts = built.texts;
    this.vocabulary = built.vocabulary;
    this.wordStart = built.wordStart;
    this.words = built.words;
    [this.#wordPlaceStart, this.#wordPlaces] = invert(built.wordStart, built.words, built.vocabulary.length);
    [this.#textPlaceStart, this.#textPlaces] = invert(built.keyStart, built.keys, built.texts.length);
    this.#gramIds = new Map();
    const textGramStart = new Growable(Uint32Array, built.texts.length + 1);
    const textGrams = new Growable(Uint32Array, 8 * built.texts.length);
    textGramStart.push(0);
    this.#textGramCount = new Uint16Array(built.texts.length);
    built.texts.forEach((text, t) => {
      const grams = trigrams(text);
      this.#textGramCount[t] = Math.min(0xffff, grams.size);
      for (const gram of grams) {
        let id = this.#gramIds.get(gram);
        if (id === undefined) this.#gramIds.set(gram, (id = this.#gramIds.size));
        textGrams.push(id);
      }
      textGramStart.push(textGrams.length);
    });
    [this.#gramTextStart, this.#gramTexts] = invert(textGramStart.finish(), textGrams.finish(), this.#gramIds.size);
  }

  get size(): number {
    return this.feature.length;
  }

  /**
   * geocoder_a: places whose names and address hold every word of the query's first
   * comma-separated part (the last word may be a prefix). An exact name beats another
   * exact name (`alt_name`, `old_name`), which beats a partial match; a name equal to the
   * whole query, commas and all, beats one equal to its first part. Then: words of the
   * later parts matched, importance, fewest extra words.
   */
  search(query: string, options: PlaceQuery): PlaceMatch[] {
    const parts = query.split(',').map(tokens).filter((part) => part.length > 0);
    const required = parts[0] ?? [];
    if (required.length === 0) return [];
    const whole = parts.flat().join(' ');
    const phrase = required.join(' ');
    const context = parts.slice(1).flat().map((word) => this.#word(word));
    const exact = required.slice(0, -1).map((word) => this.#word(word));
    if (exact.some((word) => word < 0)) return [];
    const [first, end] = this.#prefixRange(required[required.length - 1]!);
    if (first === end) return [];
    const pool = exact.length > 0 ? exact.map((word) => this.#placesWith(word)).reduce((a, b) => (b.length < a.length ? b : a)) : this.#placesWithPrefix(first, end);
    const candidates: Candidate[] = [];
    let previous = -1;
    for (const place of pool) {
      // Posting lists are sorted; a prefix union may repeat a place.
      if (place === previous) continue;
      previous = place;
      if (!exact.every((word) => this.#has(place, word, word + 1)) || !this.#has(place, first, end)) continue;
      let rank = 1;
      let extraWords = Infinity;
      for (let k = this.keyStart[place]!; k < this.keyStart[place + 1]!; k++) {
        const text = this.texts[this.keys[k]!]!;
        const own = this.keyKinds[k] !== OTHER_NAME;
        if (parts.length > 1 && text === whole) rank = Math.max(rank, own ? 6 : 5);
        else if (text === phrase) rank = Math.max(rank, own ? 4 : 3);
        else if (text.startsWith(phrase)) rank = Math.max(rank, 2);
        extraWords = Math.min(extraWords, text.split(' ').length - required.length);
      }
      const contextWords = context.filter((word) => word >= 0 && this.#has(place, word, word + 1)).length;
      candidates.push({ place, rank, context: contextWords, extraWords });
    }
    candidates.sort((a, b) => b.rank - a.rank || b.context - a.context || this.#byImportance(a, b) || a.extraWords - b.extraWords || this.feature[a.place]! - this.feature[b.place]!);
    return this.#finish(candidates, options);
  }

  /** geocoder_b: places whose names are close to the query by trigrams and edit distance. */
  fuzzy(query: string, options: PlaceQuery): PlaceMatch[] {
    const phrase = tokens(query).join(' ');
    if (phrase === '') return [];
    const queryGrams = trigrams(phrase);
    const shared = new Map<number, number>();
    for (const gram of queryGrams) {
      const id = this.#gramIds.get(gram);
      if (id === undefined) continue;
      for (let i = this.#gramTextStart[id]!; i < this.#gramTextStart[id + 1]!; i++) {
        const text = this.#gramTexts[i]!;
        shared.set(text, (shared.get(text) ?? 0) + 1);
      }
    }
    const words = phrase.split(' ');
    const best = new Map<number, Candidate>();
    for (const [text, count] of shared) {
      const dice = (2 * count) / (queryGrams.size + this.#textGramCount[text]!);
      if (dice < 0.25) continue;
      const candidate = this.texts[text]!;
      const keyWords = candidate.split(' ');
      // Each query word against its closest word of the name, weighted by length.
      let weighted = 0;
      let total = 0;
      for (const word of words) {
        weighted += Math.max(...keyWords.map((other) => similarity(word, other))) * word.length;
        total += word.length;
      }
      const closeness = Math.max((weighted / total) * 0.8 + dice * 0.2, similarity(phrase, candidate));
      if (closeness < FUZZY_MIN_SIMILARITY) continue;
      for (let i = this.#textPlaceStart[text]!; i < this.#textPlaceStart[text + 1]!; i++) {
        const place = this.#textPlaces[i]!;
        // The place's own name outranks another of its names that reads the same.
        const own = this.#kindOf(place, text) !== OTHER_NAME;
        const rank = closeness * 100 + (own ? 3 : 0);
        const previous = best.get(place);
        if (!previous || previous.rank < rank) best.set(place, { place, rank, context: 0, extraWords: 0 });
      }
    }
    const candidates = [...best.values()].sort((a, b) => b.rank - a.rank || this.#byImportance(a, b) || this.feature[a.place]! - this.feature[b.place]!);
    return this.#finish(candidates, options);
  }

  #byImportance(a: Candidate, b: Candidate): number {
    return this.importance[b.place]! - this.importance[a.place]!;
  }

  #kindOf(place: number, text: number): number {
    let kind = ADDRESS;
    for (let k = this.keyStart[place]!; k < this.keyStart[place + 1]!; k++) if (this.keys[k] === text) kind = Math.min(kind, this.keyKinds[k]!);
    return kind;
  }

  /** The number of a word, -1 when no place has it. */
  #word(word: string): number {
    const [first, end] = this.#prefixRange(word);
    return first < end && this.vocabulary[first] === word ? first : -1;
  }

  /** The word numbers `[first, end)` of the words starting with `prefix`. */
  #prefixRange(prefix: string): [number, number] {
    const lowerBound = (value: string) => {
      let low = 0;
      let high = this.vocabulary.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.vocabulary[middle]! < value) low = middle + 1;
        else high = middle;
      }
      return low;
    };
    const first = lowerBound(prefix);
    let end = first;
    while (end < this.vocabulary.length && this.vocabulary[end]!.startsWith(prefix)) end++;
    return [first, end];
  }

  #placesWith(word: number): Uint32Array {
    return this.#wordPlaces.subarray(this.#wordPlaceStart[word]!, this.#wordPlaceStart[word + 1]!);
  }

  #placesWithPrefix(first: number, end: number): Uint32Array {
    const all = this.#wordPlaces.slice(this.#wordPlaceStart[first]!, this.#wordPlaceStart[end]!);
    return all.sort();
  }

  /** Whether the place has a word numbered in `[first, end)` (its words are sorted). */
  #has(place: number, first: number, end: number): boolean {
    const last = this.wordStart[place + 1]!;
    const at = lowerBound(this.words, first, this.wordStart[place]!, last);
    return at < last && this.words[at]! < end;
  }

  /** Best first, one result per place on the ground, within the country filter, trimmed to the limit. */
  #finish(candidates: readonly Candidate[], options: PlaceQuery): PlaceMatch[] {
    const countries = options.countryCodes?.map((code) => code.toLowerCase());
    const kept: PlaceMatch[] = [];
    for (const { place } of candidates) {
      const feature = this.feature[place]!;
      const tags = this.features.tagsOf(feature);
      if (countries?.length && !inCountries(tags, countries)) continue;
      const match = { place, feature, lat: this.lat[place]!, lon: this.lon[place]!, label: placeLabel(tags, options.language) };
      if (kept.some((other) => other.label === match.label && haversineM(other.lat, other.lon, match.lat, match.lon) < SAME_PLACE_M)) continue;
      kept.push(match);
      if (kept.length >= options.limit) break;
    }
    return kept;
  }
}

/** Places that name no country pass: an extract rarely tags it, and dropping them would hide most matches. */
function inCountries(tags: Readonly<Record<string, string>>, countries: readonly string[]): boolean {
  const code = (tags['addr:country'] ?? tags['is_in:country_code'] ?? tags['ISO3166-1'] ?? tags['ISO3166-1:alpha2'])?.toLowerCase();
  return code === undefined || countries.includes(code);
}

/** The transpose of a compressed sparse row relation: for each value below `range`, the rows holding it, sorted. */
export function invert(rowStart: Uint32Array, values: Uint32Array, range: number): [Uint32Array, Uint32Array] {
  const start = new Uint32Array(range + 1);
  for (const value of values) start[value + 1]!++;
  for (let v = 0; v < range; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, range);
  const rows = new Uint32Array(values.length);
  for (let row = 0; row + 1 < rowStart.length; row++) {
    for (let i = rowStart[row]!; i < rowStart[row + 1]!; i++) {
      const value = values[i]!;
      // A row may hold a value twice (two keys of one place with a word in common).
      if (fill[value]! > start[value]! && rows[fill[value]! - 1] === row) continue;
      rows[fill[value]!++] = row;
    }
  }
  // Duplicates skipped leave gaps at the ends of the ranges: close them.
  let write = 0;
  for (let v = 0; v < range; v++) {
    const from = start[v]!;
    start[v] = write;
    for (let i = from; i < fill[v]!; i++) rows[write++] = rows[i]!;
  }
  start[range] = write;
  return [start, rows.slice(0, write)];
}

/** The columns of a place index, built from the features and the road network. */
class PlaceBuilder {
  readonly #feature = new Growable(Int32Array, 1 << 12);
  readonly #lat = new Growable(Float64Array, 1 << 12);
  readonly #lon = new Growable(Float64Array, 1 << 12);
  readonly #importance = new Growable(Float32Array, 1 << 12);
  readonly #keyStart = new Growable(Uint32Array, 1 << 12);
  readonly #keys = new Growable(Uint32Array, 1 << 13);
  readonly #keyKinds = new Growable(Uint8Array, 1 << 13);
  readonly #wordStart = new Growable(Uint32Array, 1 << 12);
  readonly #words = new Growable(Uint32Array, 1 << 14);
  readonly #texts: string[] = [];
  readonly #textIds = new Map<string, number>();
  /** Text t's words are `#textWords[#textWordStart[t] .. #textWordStart[t + 1]]`. */
  readonly #textWordStart = new Growable(Uint32Array, 1 << 12);
  readonly #textWords = new Growable(Uint32Array, 1 << 13);
  readonly #wordIds = new Map<string, number>();
  readonly #vocabulary: string[] = [];
  /** Per pool number used as a key: -1 unknown, 0 not a name, NAME or OTHER_NAME. */
  readonly #nameKind: Int8Array;
  /** Per pool number used as a value: its normalized text's number, -2 unknown, -1 empty. */
  readonly #textOfValue: Int32Array;
  readonly #key: Record<'housenumber' | 'street' | 'addrPlace' | 'city' | 'postcode', number>;
  readonly #scratch: number[] = [];

  constructor(
    private readonly features: FeatureStore,
    private readonly graph: RoadGraph,
  ) {
    const pool = features.pool;
    this.#nameKind = new Int8Array(pool.size).fill(-1);
    this.#textOfValue = new Int32Array(pool.size).fill(-2);
    this.#key = { housenumber: pool.id('addr:housenumber'), street: pool.id('addr:street'), addrPlace: pool.id('addr:place'), city: pool.id('addr:city'), postcode: pool.id('addr:postcode') };
    this.#keyStart.push(0);
    this.#wordStart.push(0);
    this.#textWordStart.push(0);
  }

  build() {
    const streets = this.#streets();
    const store = this.features;
    for (let f = 0; f < store.count; f++) {
      if (streets.featureStreet[f]! >= 0 || !this.#searchable(f)) continue;
      this.#scratch.length = 0;
      this.#collectKeys(f);
      if (this.#scratch.length > 0) this.#add(f, store.lat(f), store.lon(f), this.#importanceOf(f), [f]);
    }
    for (const street of streets.list) {
      this.#scratch.length = 0;
      for (const feature of street.features) this.#collectKeys(feature);
      if (this.#scratch.length > 0) this.#add(street.feature, street.lat, street.lon, Math.max(...street.features.map((f) => this.#importanceOf(f))), street.features);
    }
    return this.#sorted();
  }

  /** Whether a feature has a name or a house number (most features, buildings, have neither). */
  #searchable(feature: number): boolean {
    const { tagStart, tags } = this.features;
    const housenumber = this.#key.housenumber;
    const known = this.#nameKind;
    const end = tagStart[feature + 1]!;
    for (let i = tagStart[feature]!; i < end; i += 2) {
      const key = tags[i]!;
      const kind = known[key]!;
      if (kind > 0 || key === housenumber || (kind < 0 && this.#nameKindOf(key) > 0)) return true;
    }
    return false;
  }

  /**
   * Named roads in groups: a street split into several ways (at junctions, bridges,
   * changes of speed, into two carriageways) is one place. Ways with the same name join
   * when they share a node or their ends are close.
   */
  #streets() {
    const g = this.graph;
    const parent = Int32Array.from({ length: g.roadCount }, (_, r) => r);
    const root = (road: number): number => {
      while (parent[road] !== road) road = parent[road] = parent[parent[road]!]!;
      return road;
    };
    for (let v = 0; v < g.vertexCount; v++) {
      // Each pair of named roads meeting here, compared once.
      const end = g.firstEdge[v + 1]!;
      for (let e = g.firstEdge[v]!; e < end; e++) {
        const road = g.edgeRoad[e]!;
        const name = g.roadName[road]!;
        if (name < 0) continue;
        for (let other = e + 1; other < end; other++) {
          const next = g.edgeRoad[other]!;
          if (next !== road && g.roadName[next] === name) parent[root(next)] = root(road);
        }
      }
    }
    this.#joinCloseEnds(parent, root);
    const roots = new Uint32Array(g.roadCount);
    for (let road = 0; road < g.roadCount; road++) roots[road] = g.roadName[road]! < 0 ? g.roadCount : root(road);
    const [groupStart, members] = invert(sequence(g.roadCount + 1), roots, g.roadCount + 1);
    const featureStreet = new Int32Array(this.features.count).fill(-1);
    const list: { feature: number; lat: number; lon: number; features: number[] }[] = [];
    for (let group = 0; group < g.roadCount; group++) {
      const roads = members.subarray(groupStart[group]!, groupStart[group + 1]!);
      if (roads.length === 0) continue;
      // The street's point: its vertex nearest the middle of its box, so it lies on the street.
      let south = Infinity;
      let west = Infinity;
      let north = -Infinity;
      let east = -Infinity;
      for (const road of roads) {
        for (let s = g.roadFirstSegment[road]!; s < g.roadFirstSegment[road + 1]!; s++) {
          const v = g.segmentFrom[s]!;
          const w = g.segmentTo[s]!;
          south = Math.min(south, g.vertexLat[v]!, g.vertexLat[w]!);
          north = Math.max(north, g.vertexLat[v]!, g.vertexLat[w]!);
          west = Math.min(west, g.vertexLon[v]!, g.vertexLon[w]!);
          east = Math.max(east, g.vertexLon[v]!, g.vertexLon[w]!);
        }
      }
      const middleLat = (south + north) / 2;
      const middleLon = (west + east) / 2;
      // Degrees of longitude shrink with latitude; the comparison needs no more than that.
      const squeeze = Math.cos((middleLat * Math.PI) / 180) ** 2;
      let best = { road: roads[0]!, vertex: g.segmentFrom[g.roadFirstSegment[roads[0]!]!]!, distance: Infinity };
      for (const road of roads) {
        for (let s = g.roadFirstSegment[road]!; s < g.roadFirstSegment[road + 1]!; s++) {
          const v = g.segmentTo[s]!;
          const distance = (g.vertexLat[v]! - middleLat) ** 2 + squeeze * (g.vertexLon[v]! - middleLon) ** 2;
          if (distance < best.distance) best = { road, vertex: v, distance };
        }
      }
      const features = Array.from(roads, (road) => g.roadFeature[road]!).sort((a, b) => a - b);
      for (const feature of features) featureStreet[feature] = list.length;
      list.push({ feature: g.roadFeature[best.road]!, lat: g.vertexLat[best.vertex]!, lon: g.vertexLon[best.vertex]!, features });
    }
    return { featureStreet, list };
  }

  /** Joins named roads whose ends lie within `SAME_STREET_M`: ends sorted by name, then latitude, and swept. */
  #joinCloseEnds(parent: Int32Array, root: (road: number) => number): void {
    const g = this.graph;
    const endVertex: number[] = [];
    const endRoad: number[] = [];
    for (let road = 0; road < g.roadCount; road++) {
      const first = g.roadFirstSegment[road]!;
      const end = g.roadFirstSegment[road + 1]!;
      if (g.roadName[road]! < 0 || end === first) continue;
      endRoad.push(road, road);
      endVertex.push(g.segmentFrom[first]!, g.segmentTo[end - 1]!);
    }
    // The ends grouped by name, each group swept in order of latitude.
    const names = Uint32Array.from(endRoad, (road) => g.roadName[road]!);
    const [nameStart, byName] = invert(sequence(names.length + 1), names, this.features.pool.size);
    const spanLat = SAME_STREET_M / METERS_PER_DEGREE_LAT;
    const lat = (end: number) => g.vertexLat[endVertex[end]!]!;
    for (let name = 0; name < this.features.pool.size; name++) {
      if (nameStart[name + 1]! - nameStart[name]! < 2) continue;
      const ends = Array.from(byName.subarray(nameStart[name]!, nameStart[name + 1]!)).sort((a, b) => lat(a) - lat(b));
      for (let i = 0; i < ends.length; i++) {
        const vertex = endVertex[ends[i]!]!;
        for (let j = i + 1; j < ends.length && lat(ends[j]!) - lat(ends[i]!) <= spanLat; j++) {
          const road = endRoad[ends[i]!]!;
          const other = endRoad[ends[j]!]!;
          const otherVertex = endVertex[ends[j]!]!;
          if (root(other) === root(road)) continue;
          if (haversineM(g.vertexLat[vertex]!, g.vertexLon[vertex]!, g.vertexLat[otherVertex]!, g.vertexLon[otherVertex]!) <= SAME_STREET_M) parent[root(other)] = root(road);
        }
      }
    }
  }

  /** Adds a feature's search keys to `#scratch` as (text, kind) pairs, each pair once. */
  #collectKeys(feature: number): void {
    const store = this.features;
    for (let i = store.tagStart[feature]!; i < store.tagStart[feature + 1]!; i += 2) {
      const kind = this.#nameKindOf(store.tags[i]!);
      if (kind === 0) continue;
      const value = store.pool.get(store.tags[i + 1]!);
      // Other names may list several, separated by semicolons.
      if (kind === OTHER_NAME && value.includes(';')) for (const part of value.split(';')) this.#addKey(this.#text(normalize(part)), kind);
      else this.#addKey(this.#textOf(store.tags[i + 1]!), kind);
    }
    const number = store.value(feature, this.#key.housenumber);
    if (number !== undefined) this.#addKey(this.#text(normalize(`${number} ${store.value(feature, this.#key.street) ?? store.value(feature, this.#key.addrPlace) ?? ''}`)), ADDRESS);
  }

  #addKey(text: number, kind: number): void {
    const scratch = this.#scratch;
    if (text < 0) return;
    for (let i = 0; i < scratch.length; i += 2) if (scratch[i] === text && scratch[i + 1] === kind) return;
    scratch.push(text, kind);
  }

  #add(feature: number, lat: number, lon: number, importance: number, features: readonly number[]): void {
    this.#feature.push(feature);
    this.#lat.push(lat);
    this.#lon.push(lon);
    this.#importance.push(importance);
    const words: number[] = [];
    for (let i = 0; i < this.#scratch.length; i += 2) {
      const text = this.#scratch[i]!;
      this.#keys.push(text);
      this.#keyKinds.push(this.#scratch[i + 1]!);
      for (let w = this.#textWordStart.data[text]!; w < this.#textWordStart.data[text + 1]!; w++) words.push(this.#textWords.data[w]!);
    }
    this.#keyStart.push(this.#keys.length);
    for (const f of features) {
      for (const key of [this.#key.city, this.#key.postcode]) {
        const value = this.features.valueId(f, key);
        if (value < 0) continue;
        const text = this.#textOf(value);
        if (text >= 0) for (let w = this.#textWordStart.data[text]!; w < this.#textWordStart.data[text + 1]!; w++) words.push(this.#textWords.data[w]!);
      }
    }
    for (const word of words) this.#words.push(word);
    this.#wordStart.push(this.#words.length);
  }

  #nameKindOf(key: number): number {
    let kind = this.#nameKind[key]!;
    if (kind < 0) {
      const match = NAME_KEY.exec(this.features.pool.get(key));
      kind = match ? (OWN_NAME.has(match[1]!) ? NAME : OTHER_NAME) : 0;
      this.#nameKind[key] = kind;
    }
    return kind;
  }

  /** The text number of a pool value, normalized once however many features use it. */
  #textOf(value: number): number {
    let text = this.#textOfValue[value]!;
    if (text === -2) {
      text = this.#text(normalize(this.features.pool.get(value)));
      this.#textOfValue[value] = text;
    }
    return text;
  }

  #text(normal: string): number {
    if (normal === '') return -1;
    let text = this.#textIds.get(normal);
    if (text === undefined) {
      text = this.#texts.length;
      this.#texts.push(normal);
      this.#textIds.set(normal, text);
      for (const word of normal.split(' ')) {
        let id = this.#wordIds.get(word);
        if (id === undefined) {
          id = this.#vocabulary.length;
          this.#vocabulary.push(word);
          this.#wordIds.set(word, id);
        }
        this.#textWords.push(id);
      }
      this.#textWordStart.push(this.#textWords.length);
    }
    return text;
  }

  #importanceOf(feature: number): number {
    const store = this.features;
    let score = 0;
    let wiki = false;
    let named = false;
    let numbered = false;
    for (let i = store.tagStart[feature]!; i < store.tagStart[feature + 1]!; i += 2) {
      const key = store.pool.get(store.tags[i]!);
      const values = IMPORTANCE[key];
      if (values) score = Math.max(score, values[store.pool.get(store.tags[i + 1]!)] ?? OTHER_VALUE_IMPORTANCE);
      else if (key === 'wikidata' || key === 'wikipedia') wiki = true;
      else if (key === 'name') named = true;
      else if (key === 'addr:housenumber') numbered = true;
    }
    if (numbered && !named) score = Math.max(score, 3);
    return score + (wiki ? 8 : 0) + (store.kinds[feature] === 0 ? 0 : 1);
  }

  /** The columns, with word numbers renumbered in alphabetical order and each place's words sorted and unique. */
  #sorted() {
    const order = Uint32Array.from(this.#vocabulary.keys()).sort((a, b) => (this.#vocabulary[a]! < this.#vocabulary[b]! ? -1 : 1));
    const rank = new Uint32Array(order.length);
    order.forEach((word, position) => (rank[word] = position));
    const wordStart = this.#wordStart.finish();
    const raw = this.#words.view();
    const words = new Growable(Uint32Array, raw.length);
    const sortedStart = new Uint32Array(wordStart.length);
    for (let place = 0; place + 1 < wordStart.length; place++) {
      const slice = Uint32Array.from(raw.subarray(wordStart[place]!, wordStart[place + 1]!), (word) => rank[word]!).sort();
      for (let i = 0; i < slice.length; i++) if (i === 0 || slice[i] !== slice[i - 1]) words.push(slice[i]!);
      sortedStart[place + 1] = words.length;
    }
    return {
      feature: this.#feature.finish(),
      lat: this.#lat.finish(),
      lon: this.#lon.finish(),
      importance: this.#importance.finish(),
      keyStart: this.#keyStart.finish(),
      keys: this.#keys.finish(),
      keyKinds: this.#keyKinds.finish(),
      texts: this.#texts,
      vocabulary: Array.from(order, (word) => this.#vocabulary[word]!),
      wordStart: sortedStart,
      words: words.finish(),
    };
  }
}
