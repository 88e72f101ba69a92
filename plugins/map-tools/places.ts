import { InputError } from './errors.js';
import { roundTo } from './geo.js';
import type { Geocoder, LatLon, ProviderSet } from './providers/types.js';

/** A place input as the tools resolved it, echoed so the caller sees what was used. */
export interface ResolvedPlace extends LatLon {
  input: string;
  label: string;
  elementId?: string;
}

const COORDINATES = /^\s*([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)\s*$/;

/** `lat,lon` as a point, undefined for any other text; out-of-range numbers are an input error. */
export function parseCoordinates(input: string): LatLon | undefined {
  const match = COORDINATES.exec(input);
  if (!match) return undefined;
  const lat = Number(match[1]);
  const lon = Number(match[2]);
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) {
    throw new InputError(`"${input}" is not a valid "lat,lon": latitude must be -90 to 90 and longitude -180 to 180`);
  }
  return { lat, lon };
}

/** Coordinates as written, or the first geocoding match of a name or address. */
export async function resolvePlace(input: string, language: string, geocoder: Geocoder): Promise<ResolvedPlace> {
  const point = parseCoordinates(input);
  if (point) return { input, label: `${roundTo(point.lat, 7)},${roundTo(point.lon, 7)}`, ...point };
  const [first] = await geocoder.search(input.trim(), { limit: 1, language });
  if (!first) throw new InputError(`${noMatch(input, geocoder)} Try a more specific name or address, or "lat,lon" coordinates.`);
  return { input, label: first.label, lat: first.lat, lon: first.lon, ...(first.elementId && { elementId: first.elementId }) };
}

/** `No match for "<query>"`, and where the geocoder looked when that is not the whole world. */
export function noMatch(query: string, geocoder: Geocoder): string {
  return geocoder.scope ? `No match for "${query}" in ${geocoder.scope}.` : `No place found for "${query}".`;
}

export function resolvePlaces(inputs: readonly string[], language: string, geocoder: Geocoder): Promise<ResolvedPlace[]> {
  return Promise.all(inputs.map((input) => resolvePlace(input, language, geocoder)));
}

/**
 * geocoder_a, waited for only when a name needs it: literal coordinates resolve without
 * the engines (an offline extract may still be loading).
 */
export function deferredGeocoder(providers: () => Promise<ProviderSet>): Geocoder {
  let scope: string | undefined;
  const geocoder = async () => {
    const found = (await providers()).geocoders.geocoder_a;
    scope = found.scope;
    return found;
  };
  return {
    get scope() {
      return scope;
    },
    search: async (query, options) => (await geocoder()).search(query, options),
    reverse: async (point, options) => (await geocoder()).reverse(point, options),
  };
}
