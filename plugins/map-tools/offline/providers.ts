import { describeArea } from '../geo.js';
import { describeManeuver } from '../providers/instructions.js';
import type {
  Budget,
  CostTable,
  Coverage,
  CoveredArea,
  ElementId,
  GeoMatch,
  GeocodeOptions,
  Geocoder,
  IsochroneEngine,
  LatLon,
  MapElement,
  PoiSource,
  Profile,
  ProviderSet,
  RouteLeg,
  RouteOptions,
  RouteResult,
  Router,
  TagFilter,
  TripResult,
  Unroutable,
} from '../providers/types.js';
import { MAX_SNAP_M, OfflineMap, type EngineLeg, type EngineRoute } from './engine.js';
import type { LoadOptions } from './load.js';
import type { ElementKind } from './reader.js';

const ELEMENT_ID = /^(node|way|relation)\/(\d{1,19})$/;

/** A geocoder over the offline place index: exact and prefix (geocoder_a) or typo-tolerant (geocoder_b). */
export class OfflineGeocoder implements Geocoder {
  readonly scope: string;

  constructor(
    private readonly map: OfflineMap,
    private readonly fuzzy: boolean,
  ) {
    this.scope = describeArea(coveredArea(map));
  }

  async search(query: string, options: GeocodeOptions): Promise<GeoMatch[]> {
    return this.map
      .geocode(query, { fuzzy: this.fuzzy, limit: options.limit, language: options.language, ...(options.countryCodes && { countryCodes: options.countryCodes }) })
      .map((match) => ({ lat: match.lat, lon: match.lon, label: match.label, elementId: this.map.features.elementId(match.feature), confidence: match.confidence }));
  }

  async reverse(point: LatLon, options: { language: string }): Promise<GeoMatch | undefined> {
    const match = this.map.reverse(point, options.language);
    if (!match) return undefined;
    const beside = match.privateStreet;
    return {
      lat: match.lat,
      lon: match.lon,
      label: match.label,
      elementId: this.map.features.elementId(match.feature),
      ...(beside && { privateStreet: { name: beside.name, elementId: this.map.features.elementId(beside.feature), distanceM: beside.distanceM } }),
    };
  }
}

/** Routes, cost tables and visiting orders from the offline graph. */
export class OfflineRouter implements Router {
  constructor(private readonly map: OfflineMap) {}

  async route(waypoints: readonly LatLon[], profile: Profile, options: RouteOptions): Promise<RouteResult | undefined> {
    const route = this.map.route(waypoints, profile, { steps: options.steps, language: options.language });
    return route && toRouteResult(route, options.steps);
  }

  async table(origins: readonly LatLon[], destinations: readonly LatLon[], profile: Profile): Promise<CostTable> {
    const cells = this.map.table(origins, destinations, profile);
    return {
      durationsS: cells.map((row) => row.map((cell) => cell?.durationS ?? null)),
      distancesM: cells.map((row) => row.map((cell) => cell?.distanceM ?? null)),
    };
  }

  async trip(stops: readonly LatLon[], profile: Profile, options: { roundtrip: boolean }): Promise<TripResult | undefined> {
    const trip = this.map.trip(stops, profile, options.roundtrip);
    if (!trip) return undefined;
    const route = toRouteResult(trip.route, false);
    return { order: trip.order, distanceM: route.distanceM, durationS: route.durationS, legs: route.legs };
  }
}

/** Reachable areas from a one-to-all search, as one outline ring. */
export class OfflineIsochrones implements IsochroneEngine {
  constructor(private readonly map: OfflineMap) {}

  async reachable(center: LatLon, profile: Profile, budget: Budget): Promise<LatLon[][]> {
    const isochrone = this.map.isochrone(center, profile, budget);
    return isochrone ? [isochrone.outline] : [];
  }
}

/** POIs and element records straight from the extract's tags. */
export class OfflinePois implements PoiSource {
  constructor(private readonly map: OfflineMap) {}

  async nearby(center: LatLon, radiusM: number, filters: readonly TagFilter[], max: number): Promise<MapElement[]> {
    const features = this.map.features;
    return this.map
      .nearby(center, radiusM, filters, max)
      .map((hit) => ({ id: features.elementId(hit.feature), lat: features.lat(hit.feature), lon: features.lon(hit.feature), tags: features.tagsOf(hit.feature) }));
  }

  async element(id: ElementId): Promise<MapElement | undefined> {
    const parsed = ELEMENT_ID.exec(id.trim());
    if (!parsed) return undefined;
    const element = this.map.element(parsed[1] as ElementKind, Number(parsed[2]));
    return element && { id: `${element.kind}/${element.id}`, lat: element.lat, lon: element.lon, tags: element.tags };
  }
}

function toRouteResult(route: EngineRoute, withSteps: boolean): RouteResult {
  return { distanceM: route.distanceM, durationS: route.durationS, legs: route.legs.map((leg) => toLeg(leg, withSteps)) };
}

function toLeg(leg: EngineLeg, withSteps: boolean): RouteLeg {
  const result: RouteLeg = { distanceM: leg.distanceM, durationS: leg.durationS };
  if (withSteps) {
    result.steps = (leg.maneuvers ?? []).map((step) => ({
      instruction: describeManeuver(step.type, step.modifier, step.name),
      distanceM: step.distanceM,
      durationS: step.durationS,
    }));
  }
  return result;
}

/** Where routes can start and end: on the extract, near a road. */
export class OfflineCoverage implements Coverage {
  readonly area: CoveredArea;

  constructor(private readonly map: OfflineMap) {
    this.area = coveredArea(map);
  }

  async unroutable(point: LatLon, profile: Profile): Promise<Unroutable | undefined> {
    const why = this.map.unroutable(point, profile);
    return why && (why.reason === 'outside' ? why : { ...why, maxSnapM: MAX_SNAP_M });
  }
}

function coveredArea(map: OfflineMap): CoveredArea {
  return { name: map.extract.name, bounds: map.extract.bounds };
}

/** Every provider answered from one extract, for a set-up with no network. */
export function offlineProviders(map: OfflineMap, file: string): ProviderSet {
  const router = new OfflineRouter(map);
  return {
    geocoders: { geocoder_a: new OfflineGeocoder(map, false), geocoder_b: new OfflineGeocoder(map, true) },
    router,
    routes: router,
    isochrone: new OfflineIsochrones(map),
    pois: new OfflinePois(map),
    coverage: new OfflineCoverage(map),
    description: `offline from ${file} (${map.stats.vertices} routing vertices, ${map.stats.places} places)`,
  };
}

/**
 * Loads the extract and returns every provider answered from it. The map-tools plugin
 * imports this lazily, only when `MAP_OSM_FILE` is set, and calls it at start-up.
 */
export async function createOfflineProviders(file: string, options: LoadOptions = {}): Promise<ProviderSet> {
  return offlineProviders(await OfflineMap.load(file, options), file);
}
