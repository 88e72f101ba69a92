import type { FeatureStore } from './features.js';
import { haversineM, projectOnSegment } from './geo.js';
import type { RoadGraph } from './graph.js';
import { SpatialGrid } from './grid.js';
import { localName, placeLabel } from './labels.js';
import { ADDRESS, type PlaceIndex } from './places.js';

/** An address this close wins over a street that is not closer still. */
const ADDRESS_RADIUS_M = 40;
/** The farthest a named street may be to be the address; a public one this close is preferred over a private one the point is not on. */
const STREET_RADIUS_M = 150;
/** A point this close to a street's centre line is on it (a carriageway's half-width and a margin): a private street is then the address. */
const ON_STREET_M = 10;
/** `access` values that make a street private: not an address for a point merely beside it. */
const PRIVATE_ACCESS = new Set(['private', 'no']);
const PLACE_RADIUS_M = 1000;
const POINT_CELL_DEG = 0.001;

export interface ReverseMatch {
  feature: number;
  lat: number;
  lon: number;
  label: string;
  /** The name of the street taken as the address, when one is within reach. */
  street?: string;
  /** The private street nearer to the point than the public one taken as the address. */
  privateStreet?: { feature: number; name: string; distanceM: number };
}

interface StreetPoint {
  feature: number;
  name: string;
  lat: number;
  lon: number;
  distanceM: number;
}

/**
 * Coordinates to the nearest address (house number and street), else the nearest named
 * street, else the nearest named place. A private street (`access=private` or `no`: a
 * residence's drive, a club's entrance) is the address only for a point on it (within
 * `ON_STREET_M`); beside it, the nearest public named street within `STREET_RADIUS_M` is
 * the address and the private one is reported with it.
 */
export class ReverseGeocoder {
  readonly #addresses: Uint32Array;
  readonly #named: Uint32Array;
  readonly #addressGrid: SpatialGrid;
  readonly #namedGrid: SpatialGrid;
  readonly #access: number;

  constructor(
    private readonly features: FeatureStore,
    private readonly graph: RoadGraph,
    private readonly places: PlaceIndex,
  ) {
    this.#access = features.pool.id('access');
    const name = features.pool.id('name');
    const highway = features.pool.id('highway');
    const addresses: number[] = [];
    const named: number[] = [];
    for (let place = 0; place < places.size; place++) {
      const feature = places.feature[place]!;
      let kinds = 0;
      for (let k = places.keyStart[place]!; k < places.keyStart[place + 1]!; k++) kinds |= 1 << places.keyKinds[k]!;
      if (kinds & (1 << ADDRESS)) addresses.push(place);
      else if (features.valueId(feature, name) >= 0 && features.valueId(feature, highway) < 0) named.push(place);
    }
    this.#addresses = Uint32Array.from(addresses);
    this.#named = Uint32Array.from(named);
    this.#addressGrid = this.#pointGrid(this.#addresses);
    this.#namedGrid = this.#pointGrid(this.#named);
  }

  reverse(lat: number, lon: number, language: string): ReverseMatch | undefined {
    const address = this.#nearest(this.#addressGrid, this.#addresses, lat, lon, ADDRESS_RADIUS_M);
    const nearest = this.#nearestStreet(lat, lon, language, false);
    const besidePrivate = nearest && nearest.distanceM > ON_STREET_M && this.#isPrivate(nearest.feature);
    const publicStreet = besidePrivate ? this.#nearestStreet(lat, lon, language, true) : undefined;
    const street = publicStreet ?? nearest;
    const privateStreet = publicStreet && nearest && { feature: nearest.feature, name: nearest.name, distanceM: nearest.distanceM };
    const { places, features } = this;
    if (address && (!street || address.distanceM < street.distanceM)) {
      const feature = places.feature[address.place]!;
      return {
        feature,
        lat: places.lat[address.place]!,
        lon: places.lon[address.place]!,
        label: placeLabel(features.tagsOf(feature), language),
        ...(street && { street: street.name }),
        ...(privateStreet && { privateStreet }),
      };
    }
    if (street) {
      const context = this.#nearest(this.#addressGrid, this.#addresses, lat, lon, STREET_RADIUS_M * 2);
      const tags = context && features.tagsOf(places.feature[context.place]!);
      const city = tags && [tags['addr:postcode'], tags['addr:city']].filter(Boolean).join(' ');
      return {
        feature: street.feature,
        lat: street.lat,
        lon: street.lon,
        label: [street.name, city].filter(Boolean).join(', '),
        street: street.name,
        ...(privateStreet && { privateStreet }),
      };
    }
    const named = this.#nearest(this.#namedGrid, this.#named, lat, lon, PLACE_RADIUS_M);
    if (!named) return undefined;
    const feature = places.feature[named.place]!;
    return { feature, lat: places.lat[named.place]!, lon: places.lon[named.place]!, label: placeLabel(features.tagsOf(feature), language) };
  }

  #isPrivate(feature: number): boolean {
    const access = this.features.value(feature, this.#access);
    return access !== undefined && PRIVATE_ACCESS.has(access);
  }

  /** The closest point of a named road (a public one only, when asked), with the road's name in the asked language. */
  #nearestStreet(lat: number, lon: number, language: string, publicOnly: boolean): StreetPoint | undefined {
    const g = this.graph;
    let best: { segment: number; fraction: number; distanceM: number } | undefined;
    g.segments.search(
      lat,
      lon,
      STREET_RADIUS_M,
      (segment) => {
        const road = g.segmentRoad(segment);
        if (g.roadName[road]! < 0 || (publicOnly && this.#isPrivate(g.roadFeature[road]!))) return;
        const a = g.segmentFrom[segment]!;
        const b = g.segmentTo[segment]!;
        const { fraction, distanceM } = projectOnSegment(lat, lon, g.vertexLat[a]!, g.vertexLon[a]!, g.vertexLat[b]!, g.vertexLon[b]!);
        if (distanceM <= STREET_RADIUS_M && (!best || distanceM < best.distanceM)) best = { segment, fraction, distanceM };
      },
      () => best?.distanceM ?? Infinity,
    );
    if (!best) return undefined;
    const feature = g.roadFeature[g.segmentRoad(best.segment)]!;
    const a = g.segmentFrom[best.segment]!;
    const b = g.segmentTo[best.segment]!;
    return {
      feature,
      name: localName(this.features.tagsOf(feature), language) ?? '',
      lat: g.vertexLat[a]! + best.fraction * (g.vertexLat[b]! - g.vertexLat[a]!),
      lon: g.vertexLon[a]! + best.fraction * (g.vertexLon[b]! - g.vertexLon[a]!),
      distanceM: best.distanceM,
    };
  }

  #pointGrid(places: Uint32Array): SpatialGrid {
    const boxes = new Float64Array(4 * places.length);
    places.forEach((place, i) => {
      boxes[4 * i] = boxes[4 * i + 2] = this.places.lat[place]!;
      boxes[4 * i + 1] = boxes[4 * i + 3] = this.places.lon[place]!;
    });
    return SpatialGrid.build(POINT_CELL_DEG, boxes);
  }

  #nearest(grid: SpatialGrid, places: Uint32Array, lat: number, lon: number, radiusM: number): { place: number; distanceM: number } | undefined {
    let best: { place: number; distanceM: number } | undefined;
    grid.search(
      lat,
      lon,
      radiusM,
      (item) => {
        const place = places[item]!;
        const distanceM = haversineM(lat, lon, this.places.lat[place]!, this.places.lon[place]!);
        if (distanceM <= radiusM && (!best || distanceM < best.distanceM)) best = { place, distanceM };
      },
      () => best?.distanceM ?? Infinity,
    );
    return best;
  }
}
