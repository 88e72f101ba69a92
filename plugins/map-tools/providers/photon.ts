import { Type } from 'typebox';
import type { GeoMatch, GeocodeOptions, Geocoder, LatLon } from './types.js';
import type { ServiceClient } from './http.js';
import { expectShape, round } from './wire.js';

const Feature = Type.Object({
  geometry: Type.Object({ coordinates: Type.Tuple([Type.Number(), Type.Number()]) }),
  properties: Type.Record(Type.String(), Type.Unknown()),
});
const Answer = Type.Object({ features: Type.Array(Feature) });

const ELEMENT_TYPES: Record<string, string> = { N: 'node', W: 'way', R: 'relation' };
/** The label parts, most specific first, as Photon's properties name them. */
const LABEL_PARTS = ['name', 'street', 'housenumber', 'postcode', 'city', 'state', 'country'] as const;

/** geocoder_b: the Photon API, typo-tolerant. It knows few languages; others fall back to the default labels. */
export class PhotonGeocoder implements Geocoder {
  constructor(
    private readonly client: ServiceClient,
    private readonly baseUrl: string,
  ) {}

  async search(query: string, options: GeocodeOptions): Promise<GeoMatch[]> {
    const url = new URL(`${this.baseUrl}/api`);
    url.searchParams.set('q', query);
    url.searchParams.set('limit', String(options.limit));
    url.searchParams.set('lang', options.language);
    const answer = expectShape(this.client.service, Answer, await this.client.json({ url }));
    return answer.features.map(toMatch);
  }

  async reverse(point: LatLon, options: { language: string }): Promise<GeoMatch | undefined> {
    const url = new URL(`${this.baseUrl}/reverse`);
    url.searchParams.set('lat', String(round(point.lat)));
    url.searchParams.set('lon', String(round(point.lon)));
    url.searchParams.set('lang', options.language);
    const answer = expectShape(this.client.service, Answer, await this.client.json({ url }));
    const first = answer.features[0];
    return first ? toMatch(first) : undefined;
  }
}

function toMatch(feature: { geometry: { coordinates: [number, number] }; properties: Record<string, unknown> }): GeoMatch {
  const [lon, lat] = feature.geometry.coordinates;
  const properties = feature.properties;
  const street = [properties.street, properties.housenumber].filter((part) => typeof part === 'string' || typeof part === 'number').join(' ');
  const parts = LABEL_PARTS.filter((part) => part !== 'street' && part !== 'housenumber')
    .map((part) => properties[part])
    .filter((part): part is string => typeof part === 'string' && part !== '');
  if (street) parts.splice(properties.name ? 1 : 0, 0, street);
  const match: GeoMatch = { lat, lon, label: [...new Set(parts)].join(', ') || `${lat},${lon}` };
  const type = typeof properties.osm_type === 'string' ? ELEMENT_TYPES[properties.osm_type] : undefined;
  if (type && (typeof properties.osm_id === 'number' || typeof properties.osm_id === 'string')) match.elementId = `${type}/${properties.osm_id}`;
  return match;
}
