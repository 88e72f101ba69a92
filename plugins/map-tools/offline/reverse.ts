import type { ElementRef, ElementStore } from './elements.js';
import { haversineM, projectOnSegment } from './geo.js';
import type { RoadGraph } from './graph.js';
import { GridEntries, SpatialGrid } from './grid.js';
import { localName, placeLabel } from './labels.js';
import type { Place } from './places.js';

/** An address this close wins over a street that is not closer still. */
const ADDRESS_RADIUS_M = 40;
const STREET_RADIUS_M = 150;
const PLACE_RADIUS_M = 1000;

export interface ReverseMatch {
  ref: ElementRef;
  lat: number;
  lon: number;
  label: string;
  /** The name of the nearest street, when one is within reach. */
  street?: string;
}

/**
 * Coordinates to the nearest address (house number and street), else the nearest named
 * street, else the nearest named place.
 */
export class ReverseGeocoder {
  readonly #addresses: Place[];
  readonly #named: Place[];
  readonly #addressGrid: SpatialGrid;
  readonly #namedGrid: SpatialGrid;

  constructor(
    private readonly store: ElementStore,
    private readonly graph: RoadGraph,
    places: readonly Place[],
  ) {
    this.#addresses = places.filter((place) => place.tags['addr:housenumber'] !== undefined);
    this.#named = places.filter((place) => place.tags.name !== undefined && place.tags.highway === undefined);
    this.#addressGrid = pointGrid(this.#addresses);
    this.#namedGrid = pointGrid(this.#named);
  }

  reverse(lat: number, lon: number, language: string): ReverseMatch | undefined {
    const address = nearest(this.#addressGrid, this.#addresses, lat, lon, ADDRESS_RADIUS_M);
    const street = this.#nearestStreet(lat, lon, language);
    if (address && (!street || address.distanceM < street.distanceM)) {
      const { place } = address;
      return { ref: place.ref, lat: place.lat, lon: place.lon, label: placeLabel(place.tags, language), ...(street && { street: street.name }) };
    }
    if (street) {
      const context = nearest(this.#addressGrid, this.#addresses, lat, lon, STREET_RADIUS_M * 2)?.place.tags;
      const city = context && [context['addr:postcode'], context['addr:city']].filter(Boolean).join(' ');
      return { ref: street.ref, lat: street.lat, lon: street.lon, label: [street.name, city].filter(Boolean).join(', '), street: street.name };
    }
    const named = nearest(this.#namedGrid, this.#named, lat, lon, PLACE_RADIUS_M);
    return named && { ref: named.place.ref, lat: named.place.lat, lon: named.place.lon, label: placeLabel(named.place.tags, language) };
  }

  /** The closest point of any named highway, with the way's name in the asked language. */
  #nearestStreet(lat: number, lon: number, language: string): { ref: ElementRef; name: string; lat: number; lon: number; distanceM: number } | undefined {
    const g = this.graph;
    let best: { segment: number; way: number; fraction: number; distanceM: number } | undefined;
    g.segments.search(
      lat,
      lon,
      STREET_RADIUS_M,
      (segment) => {
        const way = g.edgeWay[g.segmentForward[segment]!]!;
        if (!this.store.tagsOf({ kind: 'way', index: way })?.name) return;
        const a = g.segmentFrom[segment]!;
        const b = g.segmentTo[segment]!;
        const { fraction, distanceM } = projectOnSegment(lat, lon, g.vertexLat[a]!, g.vertexLon[a]!, g.vertexLat[b]!, g.vertexLon[b]!);
        if (distanceM <= STREET_RADIUS_M && (!best || distanceM < best.distanceM)) best = { segment, way, fraction, distanceM };
      },
      () => best?.distanceM ?? Infinity,
    );
    if (!best) return undefined;
    const ref: ElementRef = { kind: 'way', index: best.way };
    const a = g.segmentFrom[best.segment]!;
    const b = g.segmentTo[best.segment]!;
    return {
      ref,
      name: localName(this.store.tagsOf(ref) ?? {}, language) ?? '',
      lat: g.vertexLat[a]! + best.fraction * (g.vertexLat[b]! - g.vertexLat[a]!),
      lon: g.vertexLon[a]! + best.fraction * (g.vertexLon[b]! - g.vertexLon[a]!),
      distanceM: best.distanceM,
    };
  }
}

function pointGrid(places: readonly Place[]): SpatialGrid {
  const entries = new GridEntries();
  places.forEach((place, i) => entries.add(i, place.lat, place.lon, place.lat, place.lon));
  return SpatialGrid.build(0.001, entries);
}

function nearest(grid: SpatialGrid, places: readonly Place[], lat: number, lon: number, radiusM: number): { place: Place; distanceM: number } | undefined {
  let best: { place: Place; distanceM: number } | undefined;
  grid.search(
    lat,
    lon,
    radiusM,
    (item) => {
      const place = places[item]!;
      const distanceM = haversineM(lat, lon, place.lat, place.lon);
      if (distanceM <= radiusM && (!best || distanceM < best.distanceM)) best = { place, distanceM };
    },
    () => best?.distanceM ?? Infinity,
  );
  return best;
}
