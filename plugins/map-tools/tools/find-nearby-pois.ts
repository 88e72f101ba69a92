import { categoryFilters, describeFilters } from '../categories.js';
import { formatDistance } from '../geo.js';
import { resolvePlace } from '../places.js';
import { requireCovered } from './coverage.js';
import { defineTool, type Defaulted } from './tool.js';
import { placeOutput } from './output.js';
import { findNearby, poiOutput } from './pois.js';

export const findNearbyPois = defineTool({
  name: 'find_nearby_pois',
  title: 'Find points of interest nearby',
  description:
    'Find points of interest near a place, nearest first. category is a shortcut (restaurant, cafe, bar, hotel, museum, supermarket, pharmacy, atm, parking, toilets, bus_stop, train_station, park, … about 45) or any raw map tag "key" or "key=value". Each result has name, distance, coordinates, osm_id and core tags.',
  async run(input: Defaulted<'find_nearby_pois', 'radius_m' | 'limit' | 'language'>, engines) {
    const filters = categoryFilters(input.category);
    const providers = await engines();
    const near = await resolvePlace(input.near, input.language, providers.geocoders.geocoder_a);
    requireCovered(providers, near);
    const found = await findNearby(providers.pois, near, input.category, input.radius_m);
    const pois = found.slice(0, input.limit).map((element) => poiOutput(element, input.language));
    const first = pois[0];
    return {
      summary: first
        ? `${pois.length} ${input.category} within ${formatDistance(input.radius_m)} of ${near.label}; nearest: ${first.name ?? first.osm_id} (${formatDistance(first.distance_m)})`
        : `No ${input.category} within ${formatDistance(input.radius_m)} of ${near.label}`,
      body: {
        near: placeOutput(near),
        category: input.category,
        tag_filter: describeFilters(filters),
        radius_m: input.radius_m,
        count: pois.length,
        pois,
      },
    };
  },
});
