import { InputError } from '../errors.js';
import { formatDistance, roundTo } from '../geo.js';
import { parseCoordinates, type ResolvedPlace } from '../places.js';
import type { Profile, ProviderSet, Unroutable } from '../providers/types.js';

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

function describe(place: ResolvedPlace, why: Unroutable, profile: Profile): string {
  const where = parseCoordinates(place.input) ? `"${place.input}"` : `"${place.input}" (${place.label}, at ${roundTo(place.lat, 5)},${roundTo(place.lon, 5)})`;
  if (why.reason === 'outside') {
    const { south, west, north, east } = why.bounds;
    return `${where} is outside the loaded map extract ${why.extract}, which covers latitudes ${roundTo(south, 4)} to ${roundTo(north, 4)} and longitudes ${roundTo(west, 4)} to ${roundTo(east, 4)}.`;
  }
  const distance = why.nearestRoadM === undefined ? 'far from every road' : `${formatDistance(why.nearestRoadM)} from the nearest road`;
  return `${where} is ${distance} open to ${TRAVELLERS[profile]} in the extract ${why.extract}; a route must start and end within ${formatDistance(why.maxSnapM)} of one.`;
}
