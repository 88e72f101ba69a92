import type { LatLon } from './providers/types.js';

/** Mean Earth radius (IUGG), the sphere the great-circle formulas use. */
export const EARTH_RADIUS_M = 6_371_008.8;
export const DISTANCE_FORMULA = 'haversine great-circle distance on a sphere of mean Earth radius 6371.0088 km';
export const DISTANCE_ACCURACY = 'within about 0.5 % of the ellipsoidal (WGS 84) distance; not a travel distance';

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
const toDegrees = (radians: number) => (radians * 180) / Math.PI;

export function haversineMeters(a: LatLon, b: LatLon): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLon = toRadians(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial compass bearing from `a` to `b`, 0 to 360 degrees clockwise from north. */
export function bearingDegrees(a: LatLon, b: LatLon): number {
  const φ1 = toRadians(a.lat);
  const φ2 = toRadians(b.lat);
  const Δλ = toRadians(b.lon - a.lon);
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (toDegrees(Math.atan2(y, x)) + 360) % 360;
}

/** The geographic midpoint (centre of the unit vectors), correct across the antimeridian. */
export function geographicMidpoint(points: readonly LatLon[]): LatLon {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const point of points) {
    const φ = toRadians(point.lat);
    const λ = toRadians(point.lon);
    x += Math.cos(φ) * Math.cos(λ);
    y += Math.cos(φ) * Math.sin(λ);
    z += Math.sin(φ);
  }
  const hyp = Math.hypot(x, y);
  return { lat: toDegrees(Math.atan2(z, hyp)), lon: toDegrees(Math.atan2(y, x)) };
}

export const COMPASS = ['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw'] as const;
export type Compass = (typeof COMPASS)[number];

export function compassOf(bearing: number): Compass {
  return COMPASS[Math.round(bearing / 45) % 8] ?? 'n';
}

export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function formatDistance(meters: number): string {
  if (meters < 1000) return `${Math.round(meters)} m`;
  return meters < 100_000 ? `${(meters / 1000).toFixed(1)} km` : `${Math.round(meters / 1000)} km`;
}

export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return 'under 1 min';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** "the loaded map extract <name>, which covers latitudes … and longitudes …": where an offline engine's knowledge ends. */
export function describeArea(area: { name: string; bounds: { south: number; west: number; north: number; east: number } }): string {
  const { south, west, north, east } = area.bounds;
  return `the loaded map extract ${area.name}, which covers latitudes ${roundTo(south, 4)} to ${roundTo(north, 4)} and longitudes ${roundTo(west, 4)} to ${roundTo(east, 4)}`;
}
