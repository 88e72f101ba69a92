import { InputError } from '../errors.js';
import { describeArea, formatDistance, roundTo } from '../geo.js';
import { parseCoordinates, type ResolvedPlace } from '../places.js';
import type { CoveredArea, LatLon, Profile, ProviderSet, Unroutable } from '../providers/types.js';

const TRAVELLERS: Readonly<Record<Profile, string>> = { foot: 'walkers', car: 'cars', bike: 'cyclists' };

/**
 * Fails with the reason when a place cannot start or end a route: outside the loaded
 * extract (naming it and what it covers), or too far from a road the profile may use.
 * Engines that do not know their coverage (the web services) pass every place.
 */
export async function requireRoutable(providers: ProviderSet, places: readonly ResolvedPlace[], profile: Profile): Promise<void> {
  const coverage = providers.coverage;
  if (!coverage) return;
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const place of places) {
    if (seen.has(place.input)) continue;
    seen.add(place.input);
    const why = await coverage.unroutable(place, profile);
    if (why) problems.push(describe(place, why, profile));
  }
  if (problems.length > 0) throw new InputError(problems.join(' '));
}

/** Fails when a place lies outside the area the engines' data covers: nothing is known there, so "nothing found" would mislead. */
export function requireCovered(providers: ProviderSet, place: ResolvedPlace): void {
  const area = providers.coverage?.area;
  if (area && !covers(area, place)) throw new InputError(`${where(place)} is outside ${describeArea(area)}.`);
}

function covers(area: CoveredArea, point: LatLon): boolean {
  const { south, west, north, east } = area.bounds;
  return point.lat >= south && point.lat <= north && point.lon >= west && point.lon <= east;
}

function where(place: ResolvedPlace): string {
  return parseCoordinates(place.input) ? `"${place.input}"` : `"${place.input}" (${place.label}, at ${roundTo(place.lat, 5)},${roundTo(place.lon, 5)})`;
}

function describe(place: ResolvedPlace, why: Unroutable, profile: Profile): string {
  if (why.reason === 'outside') return `${where(place)} is outside ${describeArea({ name: why.extract, bounds: why.bounds })}.`;
  const distance = why.nearestRoadM === undefined ? 'far from every road' : `${formatDistance(why.nearestRoadM)} from the nearest road`;
  return `${where(place)} is ${distance} open to ${TRAVELLERS[profile]} in the extract ${why.extract}; a route must start and end within ${formatDistance(why.maxSnapM)} of one.`;
}
