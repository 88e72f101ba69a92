import { InputError } from '../errors.js';
import { roundTo } from '../geo.js';
import { requireCovered } from './coverage.js';
import { defineTool, type Defaulted } from './tool.js';
import { matchOutput } from './geocode.js';

export const reverseGeocode = defineTool({
  name: 'reverse_geocode',
  title: 'Reverse geocode coordinates',
  description:
    'Convert coordinates to the nearest address or place name. A public street is preferred as the address over a private one the point only lies beside; that private street is then given as private_street.',
  async run(input: Defaulted<'reverse_geocode', 'language'>, engines) {
    const providers = await engines();
    const point = { lat: input.latitude, lon: input.longitude };
    requireCovered(providers, { input: `${input.latitude},${input.longitude}`, label: '', ...point });
    const match = await providers.geocoders.geocoder_a.reverse(point, { language: input.language });
    if (!match) throw new InputError(`No address or place found near ${input.latitude},${input.longitude} (open sea or an empty area?).`);
    const beside = match.privateStreet;
    return {
      summary: `${input.latitude},${input.longitude} is ${match.label}${beside ? ` (beside the private ${beside.name})` : ''}`,
      body: {
        latitude: input.latitude,
        longitude: input.longitude,
        result: matchOutput(match),
        ...(beside && { private_street: { name: beside.name, ...(beside.elementId && { osm_id: beside.elementId }), distance_m: roundTo(beside.distanceM, 0) } }),
      },
    };
  },
});
