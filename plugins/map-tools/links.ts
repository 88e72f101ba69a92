import type { LatLon, Profile } from './providers/types.js';
import { roundTo } from './geo.js';

export const MAP_WEBSITE = 'https://www.openstreetmap.org';

/** The website's directions engines, one per profile. */
export const DIRECTIONS_ENGINES: Record<Profile, string> = { foot: 'fossgis_osrm_foot', car: 'fossgis_osrm_car', bike: 'fossgis_osrm_bike' };

const fixed = (value: number) => String(roundTo(value, 6));

export function markerLink(point: LatLon, zoom = 17): string {
  const lat = fixed(point.lat);
  const lon = fixed(point.lon);
  return `${MAP_WEBSITE}/?mlat=${lat}&mlon=${lon}#map=${zoom}/${lat}/${lon}`;
}

export function directionsLink(from: LatLon, to: LatLon, profile: Profile): string {
  const route = `${fixed(from.lat)},${fixed(from.lon)};${fixed(to.lat)},${fixed(to.lon)}`;
  return `${MAP_WEBSITE}/directions?engine=${DIRECTIONS_ENGINES[profile]}&route=${encodeURIComponent(route)}`;
}

export function elementLink(elementId: string): string {
  return `${MAP_WEBSITE}/${elementId}`;
}
