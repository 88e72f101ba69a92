/** Mean Earth radius in meters, the one the haversine distances of every engine use. */
export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export function haversineM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial bearing from the first point to the second, degrees clockwise from north in [0, 360). */
export function bearingDeg(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const phi1 = lat1 * RAD;
  const phi2 = lat2 * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const y = Math.sin(dLon) * Math.cos(phi2);
  const x = Math.cos(phi1) * Math.sin(phi2) - Math.sin(phi1) * Math.cos(phi2) * Math.cos(dLon);
  return (Math.atan2(y, x) / RAD + 360) % 360;
}

/** Meters per degree of longitude at a latitude (a local flat projection is exact enough below a few km). */
export function metersPerDegreeLon(lat: number): number {
  return EARTH_RADIUS_M * RAD * Math.cos(lat * RAD);
}

export const METERS_PER_DEGREE_LAT = EARTH_RADIUS_M * RAD;

/** The closest point of segment a-b to p, as the fraction along a-b in [0, 1] and the distance to it in meters. */
export function projectOnSegment(pLat: number, pLon: number, aLat: number, aLon: number, bLat: number, bLon: number): { fraction: number; distanceM: number } {
  const kx = metersPerDegreeLon(pLat);
  const ky = METERS_PER_DEGREE_LAT;
  const ax = (aLon - pLon) * kx;
  const ay = (aLat - pLat) * ky;
  const dx = (bLon - aLon) * kx;
  const dy = (bLat - aLat) * ky;
  const lengthSq = dx * dx + dy * dy;
  const raw = lengthSq === 0 ? 0 : -(ax * dx + ay * dy) / lengthSq;
  const fraction = Math.max(0, Math.min(1, raw));
  return { fraction, distanceM: Math.hypot(ax + fraction * dx, ay + fraction * dy) };
}

/** The eight compass directions, in bearing order from north. */
export const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type Compass = (typeof COMPASS)[number];

export function compassOf(bearing: number): Compass {
  return COMPASS[Math.round(bearing / 45) % 8] ?? 'N';
}
