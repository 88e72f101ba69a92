import { InputError } from '../errors.js';
import { formatDistance, geographicMidpoint, roundTo } from '../geo.js';
import { elementLink } from '../links.js';
import { resolvePlaces } from '../places.js';
import { requireRoutable } from './coverage.js';
import { defineTool, type Defaulted } from './tool.js';
import { placeOutput } from './output.js';
import { displayName, findNearby } from './pois.js';
import { MAX_MATRIX_PLACES } from './route-matrix.js';

/** Candidate venues rated per call: the nearest to the midpoint, within the table limit. */
const MAX_CANDIDATES = 15;

export const suggestMeetingPoint = defineTool({
  name: 'suggest_meeting_point',
  title: 'Suggest a fair meeting point',
  description:
    'Find venues (default cafe) around the geographic midpoint of 2 to 8 starting points and pick the fairest: smallest worst-case travel time first, total time as tie-breaker. Returns the venue with per-person travel times and up to three alternatives.',
  async run(input: Defaulted<'suggest_meeting_point', 'profile' | 'venue_category' | 'search_radius_m' | 'language'>, engines) {
    const providers = await engines();
    const locations = await resolvePlaces(input.locations, input.language, providers.geocoders.geocoder_a);
    await requireRoutable(providers, locations, input.profile);
    const midpoint = geographicMidpoint(locations);
    const venues = await findNearby(providers.pois, midpoint, input.venue_category, input.search_radius_m);
    if (venues.length === 0) {
      throw new InputError(`No ${input.venue_category} within ${formatDistance(input.search_radius_m)} of the midpoint; try a larger search_radius_m or another venue_category.`);
    }
    const candidates = venues.slice(0, Math.min(MAX_CANDIDATES, MAX_MATRIX_PLACES - locations.length));
    const table = await providers.router.table(locations, candidates, input.profile);
    const rated = candidates.flatMap((venue, column) => {
      const travel = locations.map((location, row) => ({ location, seconds: table.durationsS[row]?.[column], meters: table.distancesM[row]?.[column] }));
      if (travel.some((leg) => leg.seconds === null || leg.seconds === undefined)) return [];
      const seconds = travel.map((leg) => leg.seconds ?? 0);
      return [{ venue, travel, worst: Math.max(...seconds), total: seconds.reduce((sum, value) => sum + value, 0) }];
    });
    rated.sort((a, b) => a.worst - b.worst || a.total - b.total);
    const [best, ...others] = rated.map((entry) => ({
      name: displayName(entry.venue.tags, input.language),
      osm_id: entry.venue.id,
      latitude: roundTo(entry.venue.lat, 7),
      longitude: roundTo(entry.venue.lon, 7),
      distance_from_midpoint_m: Math.round(entry.venue.distanceM),
      max_minutes: roundTo(entry.worst / 60, 1),
      total_minutes: roundTo(entry.total / 60, 1),
      travel: entry.travel.map((leg) => ({ from: leg.location.label, minutes: roundTo((leg.seconds ?? 0) / 60, 1), kilometers: roundTo((leg.meters ?? 0) / 1000, 2) })),
      map_url: elementLink(entry.venue.id),
    }));
    if (!best) throw new InputError(`None of the ${candidates.length} ${input.venue_category} venues near the midpoint can be reached by every person (${input.profile}).`);
    return {
      summary: `Meet at ${best.name ?? best.osm_id}: at most ${best.max_minutes} min for anyone (${input.profile})`,
      body: {
        profile: input.profile,
        venue_category: input.venue_category,
        locations: locations.map(placeOutput),
        midpoint: { latitude: roundTo(midpoint.lat, 7), longitude: roundTo(midpoint.lon, 7) },
        search_radius_m: input.search_radius_m,
        suggestion: best,
        alternatives: others.slice(0, 3),
      },
    };
  },
});
