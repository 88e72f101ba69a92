import { InputError } from '../errors.js';
import { defineTool, type Defaulted } from './tool.js';
import { matchOutput } from './geocode.js';

export const reverseGeocode = defineTool({
  name: 'reverse_geocode',
  title: 'Reverse geocode coordinates',
  description: 'Convert coordinates to the nearest address or place name.',
  async run(input: Defaulted<'reverse_geocode', 'language'>, engines) {
    const match = await (await engines()).geocoders.geocoder_a.reverse({ lat: input.latitude, lon: input.longitude }, { language: input.language });
    if (!match) throw new InputError(`No address or place found near ${input.latitude},${input.longitude} (open sea or an empty area?).`);
    return {
      summary: `${input.latitude},${input.longitude} is ${match.label}`,
      body: { latitude: input.latitude, longitude: input.longitude, result: matchOutput(match) },
    };
  },
});
