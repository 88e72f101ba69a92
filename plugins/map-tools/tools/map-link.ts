import { InputError } from '../errors.js';
import { DIRECTIONS_ENGINES, directionsLink, markerLink } from '../links.js';
import { deferredGeocoder, resolvePlace, resolvePlaces } from '../places.js';
import { defineTool, type Defaulted } from './tool.js';
import { placeOutput } from './output.js';
import { HUB_ERROR_CODES, HubError } from '../../../core/plugin/errors.js';

export const mapLink = defineTool({
  name: 'map_link',
  title: 'Map website link',
  description:
    'Build a link on openstreetmap.org: a marker link for "place", or a directions link when "from" and "to" are given (the directions engine matches the profile, default foot). Provide either place, or both from and to.',
  async run(input: Defaulted<'map_link', 'profile' | 'language'>, engines) {
    const geocoder = deferredGeocoder(engines);
    const directions = input.from !== undefined || input.to !== undefined;
    if (input.place !== undefined && directions) throw new InputError('Provide either "place", or "from" and "to", not both.');
    if (input.place !== undefined) {
      const place = await resolvePlace(input.place, input.language, geocoder);
      return { summary: `Marker for ${place.label}: ${markerLink(place)}`, body: { kind: 'marker' as const, url: markerLink(place), place: placeOutput(place) } };
    }
    if (input.from === undefined || input.to === undefined) throw new InputError('Provide either "place", or both "from" and "to".');
    const [from, to] = await resolvePlaces([input.from, input.to], input.language, geocoder);
    if (!from || !to) throw new HubError(HUB_ERROR_CODES.INTERNAL, 'two places were resolved as one');
    const url = directionsLink(from, to, input.profile);
    return {
      summary: `${input.profile} directions from ${from.label} to ${to.label}: ${url}`,
      body: {
        kind: 'directions' as const,
        url,
        from: placeOutput(from),
        to: placeOutput(to),
        profile: input.profile,
        directions_engine: DIRECTIONS_ENGINES[input.profile],
      },
    };
  },
});
