import { categoryFilters } from '../categories.js';
import { haversineMeters, roundTo } from '../geo.js';
import type { LatLon, MapElement, PoiSource } from '../providers/types.js';

/** The tags a nearby result carries; the full record is poi_details' job. */
export const CORE_TAGS = [
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'historic',
  'cuisine',
  'opening_hours',
  'website',
  'phone',
  'email',
  'wheelchair',
  'addr:street',
  'addr:housenumber',
  'addr:postcode',
  'addr:city',
  'brand',
  'operator',
  'stars',
  'fee',
  'diet:vegetarian',
  'diet:vegan',
  'outdoor_seating',
  'internet_access',
] as const;

/** How many raw elements to ask for, so sorting by distance still finds the nearest ones. */
const FETCH_MAX = 200;

export interface NearbyElement extends MapElement {
  distanceM: number;
}

/** Elements of a category around a point, nearest first. */
export async function findNearby(pois: PoiSource, center: LatLon, category: string, radiusM: number): Promise<NearbyElement[]> {
  const filters = categoryFilters(category);
  const elements = await pois.nearby(center, radiusM, filters, FETCH_MAX);
  const unique = new Map(elements.map((element) => [element.id, element]));
  return [...unique.values()]
    .map((element) => ({ ...element, distanceM: haversineMeters(center, element) }))
    .filter((element) => element.distanceM <= radiusM * 1.01)
    .sort((a, b) => a.distanceM - b.distanceM || a.id.localeCompare(b.id));
}

export function displayName(tags: Readonly<Record<string, string>>, language: string): string | null {
  const primary = language.toLowerCase().split('-')[0];
  return tags[`name:${language}`] ?? (primary ? tags[`name:${primary}`] : undefined) ?? tags.name ?? null;
}

export function poiOutput(element: NearbyElement, language: string) {
  const tags: Record<string, string> = {};
  for (const key of CORE_TAGS) {
    const value = element.tags[key];
    if (value !== undefined) tags[key] = value.slice(0, 500);
  }
  return {
    name: displayName(element.tags, language),
    osm_id: element.id,
    latitude: roundTo(element.lat, 7),
    longitude: roundTo(element.lon, 7),
    distance_m: Math.round(element.distanceM),
    tags,
  };
}
