import { InputError } from '../errors.js';
import { roundTo } from '../geo.js';
import type { GeoMatch } from '../providers/types.js';
import { noMatch } from '../places.js';
import { defineTool, type Defaulted } from './tool.js';

export function matchOutput(match: GeoMatch) {
  return {
    label: match.label,
    latitude: roundTo(match.lat, 7),
    longitude: roundTo(match.lon, 7),
    ...(match.elementId ? { osm_id: match.elementId } : {}),
    ...(match.confidence !== undefined ? { confidence: roundTo(match.confidence, 2) } : {}),
  };
}

export const geocode = defineTool({
  name: 'geocode',
  title: 'Geocode a place',
  description:
    'Convert a place name or address to coordinates. Returns matching places with latitude/longitude, a display label and the map element id (osm_id). provider geocoder_a (default) is best for addresses and honours countrycodes; geocoder_b is typo-tolerant.',
  async run(input: Defaulted<'geocode', 'provider' | 'limit' | 'language'>, engines) {
    const providers = await engines();
    const countryCodes = input.countrycodes?.split(',').map((code) => code.trim().toLowerCase());
    const geocoder = providers.geocoders[input.provider];
    const matches = await geocoder.search(input.query.trim(), { limit: input.limit, language: input.language, countryCodes });
    if (matches.length === 0) throw new InputError(`${noMatch(input.query, geocoder)} Try another spelling, a more specific address, or the other provider.`);
    const results = matches.slice(0, input.limit).map(matchOutput);
    return {
      summary: `${results.length} match(es) for "${input.query}"; first: ${results[0]?.label} (${results[0]?.latitude},${results[0]?.longitude})`,
      body: { query: input.query, provider: input.provider, count: results.length, results },
    };
  },
});
