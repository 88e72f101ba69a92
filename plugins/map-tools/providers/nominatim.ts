import { Type } from 'typebox';
import type { GeoMatch, GeocodeOptions, Geocoder, LatLon } from './types.js';
import type { ServiceClient } from './http.js';
import { expectShape, round } from './wire.js';

const Place = Type.Object({
  lat: Type.String(),
  lon: Type.String(),
  display_name: Type.String(),
  osm_type: Type.Optional(Type.String()),
  osm_id: Type.Optional(Type.Number()),
});
const SearchAnswer = Type.Array(Place);
const ReverseAnswer = Type.Union([Place, Type.Object({ error: Type.Unknown() })]);

/** geocoder_a: the Nominatim search and reverse API (`format=jsonv2`). */
export class NominatimGeocoder implements Geocoder {
  constructor(
    private readonly client: ServiceClient,
    private readonly baseUrl: string,
  ) {}

  async search(query: string, options: GeocodeOptions): Promise<GeoMatch[]> {
    const url = new URL(`${this.baseUrl}/search`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', String(options.limit));
    url.searchParams.set('accept-language', options.language);
    if (options.countryCodes?.length) url.searchParams.set('countrycodes', options.countryCodes.join(','));
    const answer = expectShape(this.client.service, SearchAnswer, await this.client.json({ url }));
    return answer.map(toMatch);
  }

  async reverse(point: LatLon, options: { language: string }): Promise<GeoMatch | undefined> {
    const url = new URL(`${this.baseUrl}/reverse`);
    url.searchParams.set('lat', String(round(point.lat)));
    url.searchParams.set('lon', String(round(point.lon)));
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('accept-language', options.language);
    const answer = expectShape(this.client.service, ReverseAnswer, await this.client.json({ url }));
    return 'display_name' in answer ? toMatch(answer) : undefined;
  }
}

function toMatch(place: { lat: string; lon: string; display_name: string; osm_type?: string; osm_id?: number }): GeoMatch {
  const match: GeoMatch = { lat: Number(place.lat), lon: Number(place.lon), label: place.display_name };
  if (place.osm_type && ['node', 'way', 'relation'].includes(place.osm_type) && place.osm_id !== undefined) {
    match.elementId = `${place.osm_type}/${place.osm_id}`;
  }
  return match;
}
