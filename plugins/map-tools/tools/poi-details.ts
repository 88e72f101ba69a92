import { InputError } from '../errors.js';
import { roundTo } from '../geo.js';
import { elementLink } from '../links.js';
import { defineTool } from './tool.js';
import { displayName } from './pois.js';

export const MAX_TAGS = 60;
export const MAX_TAG_VALUE = 500;

export const poiDetails = defineTool({
  name: 'poi_details',
  title: 'Map record details',
  description:
    'Fetch the full map record of one element (osm_id "node/<id>", "way/<id>" or "relation/<id>", as returned by find_nearby_pois or geocode): all tags (at most 60, values cut at 500 characters), coordinates (a centre for ways and relations) and a map link.',
  async run(input: { osm_id: string }, providers) {
    const element = await providers.pois.element(input.osm_id);
    if (!element) throw new InputError(`No map element ${input.osm_id} exists (it may have been deleted).`);
    const entries = Object.entries(element.tags).sort(([a], [b]) => a.localeCompare(b));
    const tags = Object.fromEntries(entries.slice(0, MAX_TAGS).map(([key, value]) => [key, value.length > MAX_TAG_VALUE ? `${value.slice(0, MAX_TAG_VALUE)}…` : value]));
    const name = displayName(element.tags, 'en');
    return {
      summary: `${input.osm_id}: ${name ?? 'unnamed'}, ${entries.length} tags`,
      body: {
        osm_id: input.osm_id,
        name,
        latitude: roundTo(element.lat, 7),
        longitude: roundTo(element.lon, 7),
        coordinates_are_center: !input.osm_id.startsWith('node/'),
        tags,
        tag_count: entries.length,
        tags_truncated: entries.length > MAX_TAGS,
        map_url: elementLink(input.osm_id),
      },
    };
  },
});
