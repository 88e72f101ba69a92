import type { FeatureStore } from './features.js';
import { haversineM, METERS_PER_DEGREE_LAT } from './geo.js';
import type { RoadGraph } from './graph.js';
import { Growable, lowerBound, sequence } from './growable.js';
import { CONCEPTS, conceptTags } from './lexicon.js';
import { normalize, trigrams } from './text.js';

/** The kinds of place of `./lexicon.ts`, numbered by their order there. */
export const CONCEPT_NAMES: readonly string[] = Object.keys(CONCEPTS);

/** What a place's search key is: its name (in any language), another name, or its street address. */
export const NAME = 1;
export const OTHER_NAME = 2;
export const ADDRESS = 3;

const NAME_KEY = /^(name|int_name|official_name|alt_name|old_name|short_name|loc_name)(:[a-z]{2,3}(-[A-Za-z]+)?)?$/;
/** Keys that are the feature's own name; the others (`alt_name`, `old_name`, …) rank below them. */
const OWN_NAME = new Set(['name', 'int_name', 'official_name']);
/**
 * Ways with one name whose ends are this close are one street: the two carriageways of
 * a divided road, or pieces parted by a roundabout or a square with its own name.
 */
const SAME_STREET_M = 60;

const IMPORTANCE: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  place: { country: 40, state: 35, city: 30, town: 25, village: 20, suburb: 15, quarter: 14, neighbourhood: 12, square: 12, locality: 8 },
  boundary: { administrative: 20 },
  tourism: { museum: 15, attraction: 14, hotel: 8, viewpoint: 8 },
  leisure: { stadium: 15, park: 10, sports_centre: 8, marina: 10 },
  amenity: { place_of_worship: 9, townhall: 12, casino: 14, theatre: 10, hospital: 10, university: 10 },
  historic: { castle: 14, monument: 10 },
  railway: { station: 14 },
  highway: {
    motorway: 12,
    trunk: 12,
    primary: 11,
    secondary: 10,
    tertiary: 9,
    unclassified: 7,
    residential: 7,
    living_street: 7,
    pedestrian: 7,
    service: 5,
    footway: 4,
    path: 4,
    steps: 4,
    cycleway: 4,
    track: 4,
  },
};
/** Any other value of a key in the table above. */
const OTHER_VALUE_IMPORTANCE = 4;
/** Elements that name a route, a network or a rule, not a place one can be at. */
const NOT_A_PLACE: Readonly<Record<string, ReadonlySet<string>>> = {
  type: new Set(['route', 'route_master', 'network', 'superroute', 'defaults', 'collection', 'enforcement', 'site', 'associatedStreet', 'street', 'multilinestring']),
  public_transport: new Set(['stop_position']),
};

/**
 * The geocoding index over every named or addressed feature. The ways of one street
 * (same name, sharing a node) are one place. Stored in columns: search keys are numbers
 * into a table of distinct normalized texts, words are numbers into the sorted word
 * list, and postings are compressed sparse rows: places by word, by kind of place
 * (`./lexicon.ts`), words by trigram (for typo tolerance). `./geocoding.ts` searches it.
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
  /** Place p's words, sorted: `words[wordStart[p] .. wordStart[p + 1]]` (numbers into `vocabulary`), its keys' and its address's city and postcode. */
  readonly wordStart: Uint32Array;
  readonly words: Uint32Array;
  /** Distinct normalized search keys. */
  readonly texts: string[];
  /** Text t's words in order: `textWords[textWordStart[t] .. textWordStart[t + 1]]`. */
  readonly textWordStart: Uint32Array;
  readonly textWords: Uint32Array;
  /** Every word, sorted, so a prefix is a range of word numbers. */
  readonly vocabulary: string[];
  /** 1 where the place is a street (a named road), whose name words such as "Avenue" a query may leave out. */
  readonly isStreet: Uint8Array;
  /** Numbers of `CONCEPT_NAMES` each word belongs to (a word of the lexicon in a name makes the place of that kind too). */
  readonly #wordConceptStart: Uint32Array;
  readonly #wordConcepts: Uint8Array;
  /** Place p is of the kinds `placeConcepts[placeConceptStart[p] ..]` by its tags. */
  readonly #placeConceptStart: Uint32Array;
  readonly #placeConcepts: Uint8Array;
  readonly #conceptPlaceStart: Uint32Array;
  readonly #conceptPlaces: Uint32Array;
  readonly #wordPlaceStart: Uint32Array;
  readonly #wordPlaces: Uint32Array;
  readonly #gramIds: Map<string, number>;
  readonly #gramWordStart: Uint32Array;
  readonly #gramWords: Uint32Array;
  readonly #wordGramCount: Uint8Array;

  constructor(features: FeatureStore, graph: RoadGraph) {
    const built = new PlaceBuilder(features, graph).build();
    this.feature = built.feature;
    this.lat = built.lat;
    this.lon = built.lon;
    this.importance = built.importance;
    this.keyStart = built.keyStart;
    this.keys = built.keys;
    this.keyKinds = built.keyKinds;
    this.texts = built.texts;
    this.textWordStart = built.textWordStart;
    this.textWords = built.textWords;
    this.vocabulary = built.vocabulary;
    this.wordStart = built.wordStart;
    this.words = built.words;
    this.isStreet = built.isStreet;
    [this.#wordPlaceStart, this.#wordPlaces] = invert(built.wordStart, built.words, built.vocabulary.length);
    [this.#placeConceptStart, this.#placeConcepts] = [built.placeConceptStart, built.placeConcepts];
    [this.#conceptPlaceStart, this.#conceptPlaces] = invert(built.placeConceptStart, Uint32Array.from(built.placeConcepts), CONCEPT_NAMES.length);
    [this.#wordConceptStart, this.#wordConcepts] = this.#conceptsOfWords();
    this.#gramIds = new Map();
    const wordGramStart = new Growable(Uint32Array, this.vocabulary.length + 1);
    const wordGrams = new Growable(Uint32Array, 6 * this.vocabulary.length);
    wordGramStart.push(0);
    this.#wordGramCount = new Uint8Array(this.vocabulary.length);
    this.vocabulary.forEach((word, w) => {
      const grams = trigrams(word);
      this.#wordGramCount[w] = Math.min(0xff, grams.size);
      for (const gram of grams) {
        let id = this.#gramIds.get(gram);
        if (id === undefined) this.#gramIds.set(gram, (id = this.#gramIds.size));
        wordGrams.push(id);
      }
      wordGramStart.push(wordGrams.length);
    });
    [this.#gramWordStart, this.#gramWords] = invert(wordGramStart.finish(), wordGrams.finish(), this.#gramIds.size);
  }

  get size(): number {
    return this.feature.length;
  }

  /** The number of a word, -1 when no place has it. */
  wordId(word: string): number {
    const [first, end] = this.prefixRange(word);
    return first < end && this.vocabulary[first] === word ? first : -1;
  }

  /** The word numbers `[first, end)` of the words starting with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    const first = lowerBoundText(this.vocabulary, prefix);
    let end = first;
    while (end < this.vocabulary.length && this.vocabulary[end]!.startsWith(prefix)) end++;
    return [first, end];
  }

  /** The places holding a word, sorted. */
  placesWith(word: number): Uint32Array {
    return this.#wordPlaces.subarray(this.#wordPlaceStart[word], this.#wordPlaceStart[word + 1]);
  }

  /** The places of a kind (a number of `CONCEPT_NAMES`) by their tags, sorted. */
  placesOfConcept(concept: number): Uint32Array {
    return this.#conceptPlaces.subarray(this.#conceptPlaceStart[concept], this.#conceptPlaceStart[concept + 1]);
  }

  /** Whether the place is of a kind by its tags. */
  hasConcept(place: number, concept: number): boolean {
    for (let i = this.#placeConceptStart[place]!; i < this.#placeConceptStart[place + 1]!; i++) if (this.#placeConcepts[i] === concept) return true;
    return false;
  }

  /** The kinds (numbers of `CONCEPT_NAMES`) a word names. */
  conceptsOfWord(word: number): Uint8Array {
    return this.#wordConcepts.subarray(this.#wordConceptStart[word], this.#wordConceptStart[word + 1]);
  }

  /** Whether the place has the word among its key words or address (its words are sorted). */
  hasWord(place: number, word: number): boolean {
    const last = this.wordStart[place + 1]!;
    const at = lowerBound(this.words, word, this.wordStart[place]!, last);
    return at < last && this.words[at] === word;
  }

  /** Words sharing trigrams with `word`, with how many (for typo tolerance: candidates, to be checked by edit distance). */
  wordsSharingTrigrams(word: string): { word: number; dice: number }[] {
    const grams = trigrams(word);
    const shared = new Map<number, number>();
    for (const gram of grams) {
      const id = this.#gramIds.get(gram);
      if (id === undefined) continue;
      for (let i = this.#gramWordStart[id]!; i < this.#gramWordStart[id + 1]!; i++) shared.set(this.#gramWords[i]!, (shared.get(this.#gramWords[i]!) ?? 0) + 1);
    }
    return Array.from(shared, ([other, count]) => ({ word: other, dice: (2 * count) / (grams.size + this.#wordGramCount[other]!) }));
  }

  #conceptsOfWords(): [Uint32Array, Uint8Array] {
    const byWord = new Map<number, number[]>();
    CONCEPT_NAMES.forEach((name, concept) => {
      for (const word of CONCEPTS[name]!.words) {
        const id = this.wordId(normalize(word));
        if (id < 0) continue;
        const list = byWord.get(id) ?? [];
        if (!list.includes(concept)) list.push(concept);
        byWord.set(id, list);
      }
    });
    const start = new Uint32Array(this.vocabulary.length + 1);
    for (const [word, list] of byWord) start[word + 1] = list.length;
    for (let w = 0; w < this.vocabulary.length; w++) start[w + 1]! += start[w]!;
    const concepts = new Uint8Array(start[this.vocabulary.length]!);
    for (const [word, list] of byWord) concepts.set(list, start[word]);
    return [start, concepts];
  }
}

/** The first index of a sorted list of strings not below `value`. */
function lowerBoundText(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Places that name no country pass: an extract rarely tags it, and dropping them would hide most matches. */
export function inCountries(tags: Readonly<Record<string, string>>, countries: readonly string[]): boolean {
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
  readonly #isStreet = new Growable(Uint8Array, 1 << 12);
  readonly #placeConceptStart = new Growable(Uint32Array, 1 << 12);
  readonly #placeConcepts = new Growable(Uint8Array, 1 << 12);
  /** Per key (pool number): the kinds any value makes, and those a value makes (`./lexicon.ts`). */
  readonly #conceptTags = new Map<number, { any: number[]; values: Map<number, number[]> }>();
  /** Per key (pool number): the values that make an element no place (`NOT_A_PLACE`). */
  readonly #notPlace = new Map<number, Set<number>>();

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
    this.#placeConceptStart.push(0);
    CONCEPT_NAMES.forEach((name, concept) => {
      for (const { key, value } of conceptTags(CONCEPTS[name]!)) {
        const keyId = pool.id(key);
        if (keyId < 0) continue;
        const entry = this.#conceptTags.get(keyId) ?? { any: [], values: new Map<number, number[]>() };
        this.#conceptTags.set(keyId, entry);
        if (value === undefined) entry.any.push(concept);
        else {
          const valueId = pool.id(value);
          if (valueId >= 0) entry.values.set(valueId, [...(entry.values.get(valueId) ?? []), concept]);
        }
      }
    });
    for (const [key, values] of Object.entries(NOT_A_PLACE)) {
      const keyId = pool.id(key);
      if (keyId >= 0) this.#notPlace.set(keyId, new Set([...values].map((value) => pool.id(value)).filter((id) => id >= 0)));
    }
  }

  build() {
    const streets = this.#streets();
    const store = this.features;
    for (let f = 0; f < store.count; f++) {
      if (streets.featureStreet[f]! >= 0 || !this.#searchable(f)) continue;
      this.#scratch.length = 0;
      this.#collectKeys(f);
      if (this.#scratch.length > 0) this.#add(f, store.lat(f), store.lon(f), this.#importanceOf(f), [f], false);
    }
    for (const street of streets.list) {
      this.#scratch.length = 0;
      for (const feature of street.features) this.#collectKeys(feature);
      if (this.#scratch.length > 0) this.#add(street.feature, street.lat, street.lon, Math.max(...street.features.map((f) => this.#importanceOf(f))), street.features, true);
    }
    return this.#sorted();
  }

  /** Whether a feature has a name or a house number (most features, buildings, have neither) and is a place (not a route, say). */
  #searchable(feature: number): boolean {
    const { tagStart, tags } = this.features;
    const housenumber = this.#key.housenumber;
    const known = this.#nameKind;
    const end = tagStart[feature + 1]!;
    let searchable = false;
    for (let i = tagStart[feature]!; i < end; i += 2) {
      const key = tags[i]!;
      const kind = known[key]!;
      if (kind > 0 || key === housenumber || (kind < 0 && this.#nameKindOf(key) > 0)) searchable = true;
      else if (this.#notPlace.get(key)?.has(tags[i + 1]!)) return false;
    }
    return searchable;
  }

  /** The kinds (`./lexicon.ts`) a feature's tags make it. */
  #conceptsOf(feature: number): number[] {
    const { tagStart, tags } = this.features;
    const concepts: number[] = [];
    for (let i = tagStart[feature]!; i < tagStart[feature + 1]!; i += 2) {
      const entry = this.#conceptTags.get(tags[i]!);
      if (!entry) continue;
      for (const concept of [...entry.any, ...(entry.values.get(tags[i + 1]!) ?? [])]) if (!concepts.includes(concept)) concepts.push(concept);
    }
    return concepts;
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
      const roads = members.subarray(groupStart[group], groupStart[group + 1]);
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
      const ends = Array.from(byName.subarray(nameStart[name], nameStart[name + 1])).sort((a, b) => lat(a) - lat(b));
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

  #add(feature: number, lat: number, lon: number, importance: number, features: readonly number[], street: boolean): void {
    this.#feature.push(feature);
    this.#isStreet.push(street ? 1 : 0);
    for (const concept of this.#conceptsOf(feature)) this.#placeConcepts.push(concept);
    this.#placeConceptStart.push(this.#placeConcepts.length);
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
      const slice = Uint32Array.from(raw.subarray(wordStart[place], wordStart[place + 1]), (word) => rank[word]!).sort();
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
      textWordStart: this.#textWordStart.finish(),
      textWords: Uint32Array.from(this.#textWords.view(), (word) => rank[word]!),
      vocabulary: Array.from(order, (word) => this.#vocabulary[word]!),
      wordStart: sortedStart,
      words: words.finish(),
      isStreet: this.#isStreet.finish(),
      placeConceptStart: this.#placeConceptStart.finish(),
      placeConcepts: this.#placeConcepts.finish(),
    };
  }
}
