/**
 * The provider interfaces of the map tools. Every engine (the web services in this
 * folder, the offline engine in `../offline/`) implements these and nothing else, so the
 * tools never see a wire format. Units are fixed: degrees (WGS 84), meters, seconds.
 * These shapes are stable; extend them only by adding optional members.
 */

/** A point in WGS 84 degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** The travel profiles of every tool. Each engine maps them to its own profile names. */
export type Profile = 'foot' | 'car' | 'bike';

/** `node/<id>`, `way/<id>` or `relation/<id>`. */
export type ElementId = string;

/** One geocoding match. */
export interface GeoMatch extends LatLon {
  /** A human-readable label in the requested language where the engine has one. */
  label: string;
  /** The map element the match came from, when the engine knows it. */
  elementId?: ElementId;
  /** How surely the match is what the query names, 0 to 1, when the engine rates it (the offline engine does). */
  confidence?: number;
  /** A street the point lies beside that is private (`access=private`/`no`), when a public one was preferred as the address. */
  privateStreet?: { name: string; elementId?: ElementId; distanceM: number };
}

export interface GeocodeOptions {
  limit: number;
  /** IETF language code for labels. */
  language: string;
  /** Lowercase ISO 3166-1 alpha-2 codes; engines without a country filter ignore it. */
  countryCodes?: readonly string[];
}

/** Place names and addresses to coordinates, and back. */
export interface Geocoder {
  /** Where it searches, when that is not the whole world ("the loaded map extract …"), for telling a caller nothing there matched. */
  readonly scope?: string;
  /** Best match first; an empty array when nothing matches. */
  search(query: string, options: GeocodeOptions): Promise<GeoMatch[]>;
  /** The nearest address or place, or undefined when there is none. */
  reverse(point: LatLon, options: { language: string }): Promise<GeoMatch | undefined>;
}

/** One manoeuvre of a turn-by-turn summary. */
export interface RouteStep {
  /** A short instruction such as "turn left onto Main Street". */
  instruction: string;
  distanceM: number;
  durationS: number;
}

/** The part of a route between two consecutive waypoints. */
export interface RouteLeg {
  distanceM: number;
  durationS: number;
  /** Present only when steps were asked for. */
  steps?: RouteStep[];
}

export interface RouteResult {
  distanceM: number;
  durationS: number;
  /** One per consecutive pair of waypoints, in order. */
  legs: RouteLeg[];
}

export interface RouteOptions {
  steps: boolean;
  language: string;
}

/** Point-to-point routing through waypoints in the given order. */
export interface RouteEngine {
  /** Undefined when no route connects the waypoints. */
  route(waypoints: readonly LatLon[], profile: Profile, options: RouteOptions): Promise<RouteResult | undefined>;
}

/** Travel costs from every origin to every destination; `null` where no route exists. */
export interface CostTable {
  /** `durationsS[origin][destination]` */
  durationsS: (number | null)[][];
  /** `distancesM[origin][destination]` */
  distancesM: (number | null)[][];
}

export interface TripResult {
  /** Indices into the input stops, in visiting order (the first stop is always index 0). */
  order: number[];
  distanceM: number;
  durationS: number;
  /** Legs between consecutive visited stops; a round trip has one more leg back to the start. */
  legs: RouteLeg[];
}

/** The default routing engine: routes, cost tables and visiting orders. */
export interface Router extends RouteEngine {
  table(origins: readonly LatLon[], destinations: readonly LatLon[], profile: Profile): Promise<CostTable>;
  /**
   * The best visiting order. With `roundtrip` the tour returns to the first stop; without,
   * it starts at the first stop and ends at the last. Undefined when no tour exists.
   */
  trip(stops: readonly LatLon[], profile: Profile, options: { roundtrip: boolean }): Promise<TripResult | undefined>;
}

/** A travel budget: a time or a distance. */
export type Budget = { seconds: number } | { meters: number };

/** Reachable areas. */
export interface IsochroneEngine {
  /**
   * The outline(s) of the area reachable from `center` within `budget`: one or more rings
   * of points (a ring need not be closed). An empty array when nothing is reachable.
   */
  reachable(center: LatLon, profile: Profile, budget: Budget): Promise<LatLon[][]>;
}

/** One raw map record with its position (a centre for ways and relations). */
export interface MapElement extends LatLon {
  id: ElementId;
  tags: Record<string, string>;
}

/** A tag condition: `key` present (any value), or `key` equal to `value`. */
export interface TagFilter {
  key: string;
  value?: string;
}

/** The map-data query service. */
export interface PoiSource {
  /**
   * Elements within `radiusM` of `center` matching ANY of `filters`, with their tags.
   * Order is unspecified; at most `max` are returned (the tool sorts and trims).
   */
  nearby(center: LatLon, radiusM: number, filters: readonly TagFilter[], max: number): Promise<MapElement[]>;
  /** One element by id, or undefined when it does not exist. */
  element(id: ElementId): Promise<MapElement | undefined>;
}

/** Why routes cannot start or end at a point, as an engine with a bounded area knows it. */
export type Unroutable =
  /** The point lies outside the area the engine's data covers. */
  | { reason: 'outside'; extract: string; bounds: CoveredArea['bounds'] }
  /** The point lies in the area, too far from every road the profile may use (`nearestRoadM` undefined: none nearby at all). */
  | { reason: 'off-road'; extract: string; nearestRoadM: number | undefined; maxSnapM: number };

/** The box an engine's data covers, and the name of what holds it (an extract's file name). */
export interface CoveredArea {
  name: string;
  bounds: { south: number; west: number; north: number; east: number };
}

/** The area an engine can route in; the offline engine has one, the web services do not say. */
export interface Coverage {
  /** Everything the engines know lies in this box: a place beyond it is off the map, for every tool. */
  readonly area?: CoveredArea;
  /** Undefined when routes can start and end at the point. */
  unroutable(point: LatLon, profile: Profile): Promise<Unroutable | undefined>;
}

/** The geocoder names a caller can pick. */
export type GeocoderName = 'geocoder_a' | 'geocoder_b';

/**
 * Everything the tools use, chosen in one place (`./select.ts`). `routes` and
 * `isochrone` may be the alternative service; `router` is always the default engine
 * (matrix, trips, meeting points).
 */
export interface ProviderSet {
  geocoders: Record<GeocoderName, Geocoder>;
  router: Router;
  routes: RouteEngine;
  isochrone: IsochroneEngine;
  pois: PoiSource;
  /** True when `routes` and `isochrone` are the alternative routing service; results say so. */
  alternativeRouting?: boolean;
  /** Where routes can start and end, when the engines know it (they cover one extract, say). */
  coverage?: Coverage;
  /** A short description of the engines in use, for logs and the CLI banner. */
  description: string;
}
