import type { FeatureStore } from './features.js';
import { bearingDeg, COMPASS, compassOf, haversineM, type Compass } from './geo.js';
import type { RoadGraph } from './graph.js';
import { loadExtract, type Extract, type LoadOptions } from './load.js';
import { PlaceSearch, type PlaceMatch } from './geocoding.js';
import { PlaceIndex } from './places.js';
import { PoiIndex, type PoiHit, type TagCondition } from './pois.js';
import type { Profile } from './profiles.js';
import type { Bounds, ElementKind, Tags } from './reader.js';
import { ReverseGeocoder, type ReverseMatch } from './reverse.js';
import { GraphSearch, type Metric, type Path, type Snap } from './search.js';
import { maneuvers, type Maneuver } from './steps.js';
import { solveTrip } from './trip.js';

/** Points farther than this from any road the profile may use are not routable (at sea, say). */
export const MAX_SNAP_M = 1000;
/** How far to look for the nearest road when telling a caller how far off the network a point is. */
const NEAREST_ROAD_SEARCH_M = 50_000;
/** Angular resolution of isochrone outlines: a multiple of 8, so compass directions span whole sectors. */
const OUTLINE_SECTORS = 72;

export interface Point {
  lat: number;
  lon: number;
}

export interface EngineLeg {
  distanceM: number;
  durationS: number;
  maneuvers?: Maneuver[];
  /** OSM ids of the ways travelled, in order, each once per visit. */
  wayIds: number[];
}

export interface EngineRoute {
  distanceM: number;
  durationS: number;
  legs: EngineLeg[];
}

export interface Cell {
  durationS: number;
  distanceM: number;
}

export interface Isochrone {
  /** The outline: the farthest point reached in each narrow sector around the centre, by bearing. */
  outline: Point[];
  bbox: { south: number; west: number; north: number; east: number };
  /** The farthest reach in meters per compass direction (0 where nothing is reached that way). */
  reachM: Record<Compass, number>;
}

export interface ElementDetails extends Point {
  kind: ElementKind;
  id: number;
  tags: Tags;
}

/** Why a point cannot be routed: it lies outside the extract, or too far from every road the profile may use. */
export type Unroutable = { reason: 'outside'; extract: string; bounds: Bounds } | { reason: 'off-road'; extract: string; nearestRoadM: number | undefined };

export interface LoadStats {
  /** Elements read from the file. */
  nodes: number;
  ways: number;
  relations: number;
  /** What was kept: tagged elements, routing vertices and edges, places. */
  features: number;
  vertices: number;
  edges: number;
  places: number;
  loadMs: number;
}

/**
 * The offline map: an OSM extract loaded once into features (the tagged elements), a
 * road graph for the three profiles, a place index, a POI grid and a reverse geocoder.
 */
export class OfflineMap {
  readonly features: FeatureStore;
  readonly graph: RoadGraph;
  readonly places: PlaceIndex;
  readonly pois: PoiIndex;
  readonly #search: GraphSearch;
  readonly #reverse: ReverseGeocoder;
  readonly #places: PlaceSearch;

  private constructor(
    readonly extract: Extract,
    readonly stats: LoadStats,
  ) {
    this.features = extract.features;
    this.graph = extract.graph;
    this.places = new PlaceIndex(this.features, this.graph);
    this.#places = new PlaceSearch(this.places, this.features, extract.areas);
    this.pois = new PoiIndex(this.features);
    this.#search = new GraphSearch(this.graph);
    this.#reverse = new ReverseGeocoder(this.features, this.graph, this.places);
  }

  static async load(file: string, options: LoadOptions = {}): Promise<OfflineMap> {
    const log = options.log ?? (() => {});
    const started = performance.now();
    log(`offline map: loading ${file}`);
    const extract = await loadExtract(file, options);
    const stats: LoadStats = {
      ...extract.counts,
      features: extract.features.count,
      vertices: extract.graph.vertexCount,
      edges: extract.graph.edgeCount,
      places: 0,
      loadMs: 0,
    };
    const map = new OfflineMap(extract, stats);
    stats.places = map.places.size;
    stats.loadMs = Math.round(performance.now() - started);
    log(
      `offline map: loaded ${extract.name}: ${stats.nodes} nodes, ${stats.ways} ways, ${stats.relations} relations; ` +
        `kept ${stats.features} tagged elements, ${stats.vertices} routing vertices, ${stats.edges} edges, ${stats.places} places in ${stats.loadMs} ms`,
    );
    return map;
  }

  geocode(query: string, options: { fuzzy: boolean; limit: number; language: string; countryCodes?: readonly string[] }): PlaceMatch[] {
    return this.#places.search(query, options);
  }

  reverse(point: Point, language: string): ReverseMatch | undefined {
    return this.#reverse.reverse(point.lat, point.lon, language);
  }

  snap(point: Point, profile: Profile): Snap | undefined {
    return this.#search.snap(point.lat, point.lon, profile, MAX_SNAP_M);
  }

  /** Why no route can start or end at a point, or undefined when one can. */
  unroutable(point: Point, profile: Profile): Unroutable | undefined {
    if (this.snap(point, profile)) return undefined;
    const { name, bounds } = this.extract;
    if (point.lat < bounds.south || point.lat > bounds.north || point.lon < bounds.west || point.lon > bounds.east) return { reason: 'outside', extract: name, bounds };
    return { reason: 'off-road', extract: name, nearestRoadM: this.#search.snap(point.lat, point.lon, profile, NEAREST_ROAD_SEARCH_M)?.distanceM };
  }

  /** The fastest route through the waypoints in order, or undefined when a leg has none. */
  route(waypoints: readonly Point[], profile: Profile, options: { steps: boolean; language: string }): EngineRoute | undefined {
    const snaps = waypoints.map((point) => this.snap(point, profile));
    const legs: EngineLeg[] = [];
    for (let i = 1; i < snaps.length; i++) {
      const from = snaps[i - 1];
      const to = snaps[i];
      const path = from && to ? this.#search.route(profile, from, to) : undefined;
      if (!path) return undefined;
      legs.push(this.#leg(path, profile, options));
    }
    return { distanceM: sum(legs.map((leg) => leg.distanceM)), durationS: sum(legs.map((leg) => leg.durationS)), legs };
  }

  /** Costs from every origin to every destination, undefined where no route exists. */
  table(origins: readonly Point[], destinations: readonly Point[], profile: Profile): (Cell | undefined)[][] {
    const targets = destinations.map((point) => this.snap(point, profile));
    return origins.map((origin) => {
      const from = this.snap(origin, profile);
      return from ? this.#search.oneToMany(profile, from, targets) : destinations.map(() => undefined);
    });
  }

  /** The best visiting order of the stops, with its legs; undefined when no tour exists. */
  trip(stops: readonly Point[], profile: Profile, roundtrip: boolean): { order: number[]; route: EngineRoute } | undefined {
    const table = this.table(stops, stops, profile);
    const costs = table.map((row, i) => row.map((cell, j) => (i === j ? 0 : (cell?.durationS ?? Infinity))));
    const order = solveTrip(costs, roundtrip);
    if (!order) return undefined;
    const visits = roundtrip ? [...order, order[0]!] : order;
    const route = this.route(
      visits.map((index) => stops[index]!),
      profile,
      { steps: false, language: 'en' },
    );
    return route && { order, route };
  }

  /** The area reachable from `center` within a time (seconds) or distance (meters) budget. */
  isochrone(center: Point, profile: Profile, budget: { seconds: number } | { meters: number }): Isochrone | undefined {
    const from = this.snap(center, profile);
    if (!from) return undefined;
    const metric: Metric = 'seconds' in budget ? 'time' : 'distance';
    const limit = 'seconds' in budget ? budget.seconds : budget.meters;
    const reach = this.#search.reach(profile, from, limit, metric);
    const points: Point[] = [{ lat: from.lat, lon: from.lon }, ...reach.frontier];
    for (const { vertex } of reach.vertices) points.push({ lat: this.graph.vertexLat[vertex]!, lon: this.graph.vertexLon[vertex]! });
    return summarize(center, points);
  }

  nearby(center: Point, radiusM: number, conditions: readonly TagCondition[], max: number): PoiHit[] {
    return this.pois.nearby(center.lat, center.lon, radiusM, conditions, max);
  }

  /** A tagged node, way or relation of the file with its tags and position (a centre for ways and relations). */
  element(kind: ElementKind, id: number): ElementDetails | undefined {
    const feature = this.features.find(kind, id);
    if (feature < 0) return undefined;
    return { kind, id, tags: this.features.tagsOf(feature), lat: this.features.lat(feature), lon: this.features.lon(feature) };
  }

  #leg(path: Path, profile: Profile, options: { steps: boolean; language: string }): EngineLeg {
    const wayIds: number[] = [];
    for (const piece of path.pieces) {
      const id = this.features.ids[this.graph.roadFeature[this.graph.edgeRoad[piece.edge]!]!]!;
      if (wayIds[wayIds.length - 1] !== id) wayIds.push(id);
    }
    const leg: EngineLeg = { distanceM: path.distanceM, durationS: path.durationS, wayIds };
    if (options.steps) leg.maneuvers = maneuvers(this.features, this.graph, this.graph.edgeTime[profile], path, options.language);
    return leg;
  }
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Bounding box, reach per compass direction and an outline of the farthest point per sector. */
function summarize(center: Point, points: readonly Point[]): Isochrone {
  const bbox = { south: Infinity, west: Infinity, north: -Infinity, east: -Infinity };
  const reachM = Object.fromEntries(COMPASS.map((direction) => [direction, 0])) as Record<Compass, number>;
  const farthest = new Array<{ point: Point; distanceM: number } | undefined>(OUTLINE_SECTORS).fill(undefined);
  for (const point of points) {
    bbox.south = Math.min(bbox.south, point.lat);
    bbox.north = Math.max(bbox.north, point.lat);
    bbox.west = Math.min(bbox.west, point.lon);
    bbox.east = Math.max(bbox.east, point.lon);
    const distanceM = haversineM(center.lat, center.lon, point.lat, point.lon);
    if (distanceM === 0) continue;
    const bearing = bearingDeg(center.lat, center.lon, point.lat, point.lon);
    const direction = compassOf(bearing);
    reachM[direction] = Math.max(reachM[direction], distanceM);
    // Sectors start at 22.5° so that each compass direction spans whole sectors.
    const sector = Math.floor(((bearing + 22.5) % 360) / (360 / OUTLINE_SECTORS)) % OUTLINE_SECTORS;
    if ((farthest[sector]?.distanceM ?? -1) < distanceM) farthest[sector] = { point, distanceM };
  }
  const outline = farthest.filter((entry) => entry !== undefined).map((entry) => entry.point);
  return { outline: outline.length > 0 ? outline : [points[0]!], bbox, reachM };
}
