import { InputError } from '../errors.js';
import { describeArea, roundTo } from '../geo.js';
import { elementLink } from '../links.js';
import { defineTool } from './tool.js';
import { displayName } from './pois.js';

export const MAX_TAGS = 60;
export const MAX_TAG_VALUE = 500;

/**
 * The tags that say what a record is, where and how to reach it, in this order; they
 * come first, so a record with hundreds of translations still shows them within the cap.
 */
export const DETAIL_TAGS = [
  'name',
  'official_name',
  'alt_name',
  'old_name',
  'short_name',
  'ref',
  'type',
  'place',
  'boundary',
  'admin_level',
  'highway',
  'railway',
  'public_transport',
  'aeroway',
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'historic',
  'building',
  'landuse',
  'natural',
  'man_made',
  'office',
  'craft',
  'healthcare',
  'sport',
  'religion',
  'cuisine',
  'addr:housenumber',
  'addr:street',
  'addr:place',
  'addr:postcode',
  'addr:city',
  'addr:country',
  'opening_hours',
  'website',
  'url',
  'phone',
  'email',
  'wheelchair',
  'access',
  'fee',
  'brand',
  'operator',
  'network',
  'stars',
  'capacity',
  'population',
  'timezone',
  'currency',
  'ISO3166-1',
  'wikidata',
  'wikipedia',
  'description',
  'start_date',
  'heritage',
  'ele',
];
const DETAIL_RANK = new Map<string, number>(DETAIL_TAGS.map((key, rank) => [key, rank]));
/** `name:fr`, `alt_name:de`, `wikipedia:en`: a name in one language each, listed after every other key. */
const TRANSLATION = /^(name|alt_name|official_name|old_name|short_name|int_name|loc_name|nat_name|reg_name|wikipedia):/;

/** Core tags in their order, then the others by key, translations last. */
export function detailOrder([a]: readonly [string, string], [b]: readonly [string, string]): number {
  const rankA = DETAIL_RANK.get(a) ?? DETAIL_TAGS.length + (TRANSLATION.test(a) ? 1 : 0);
  const rankB = DETAIL_RANK.get(b) ?? DETAIL_TAGS.length + (TRANSLATION.test(b) ? 1 : 0);
  return rankA - rankB || (a < b ? -1 : a > b ? 1 : 0);
}

export const poiDetails = defineTool({
  name: 'poi_details',
  title: 'Map record details',
  description:
    'Fetch the full map record of one element (osm_id "node/<id>", "way/<id>" or "relation/<id>", as returned by find_nearby_pois or geocode): all tags (at most 60, values cut at 500 characters), coordinates (a centre for ways and relations) and a map link.',
  async run(input: { osm_id: string }, engines) {
    const providers = await engines();
    const element = await providers.pois.element(input.osm_id);
    if (!element) {
      const area = providers.coverage?.area;
      throw new InputError(
        area
          ? `No tagged map element ${input.osm_id} is in ${describeArea(area)} (it may lie outside it, be untagged geometry, or have been deleted).`
          : `No map element ${input.osm_id} exists (it may have been deleted).`,
      );
    }
    const entries = Object.entries(element.tags).sort(detailOrder);
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
