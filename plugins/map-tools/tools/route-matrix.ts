import { InputError } from '../errors.js';
import { roundTo } from '../geo.js';
import { resolvePlaces } from '../places.js';
import { requireRoutable } from './coverage.js';
import { defineTool, type Defaulted } from './tool.js';
import { placeOutput } from './output.js';

/** The public routing engine's usage policy caps a table at 25 coordinates. */
export const MAX_MATRIX_PLACES = 25;

export const routeMatrix = defineTool({
  name: 'route_matrix',
  title: 'Travel time and distance matrix',
  description: 'Travel times (minutes) and distances (kilometers) from every origin to every destination in one call; a cell is null where no route exists. Origins plus destinations at most 25.',
  async run(input: Defaulted<'route_matrix', 'language'>, engines) {
    if (input.origins.length + input.destinations.length > MAX_MATRIX_PLACES) {
      throw new InputError(`origins plus destinations must be at most ${MAX_MATRIX_PLACES}; got ${input.origins.length} + ${input.destinations.length}.`);
    }
    const providers = await engines();
    const geocoder = providers.geocoders.geocoder_a;
    const origins = await resolvePlaces(input.origins, input.language, geocoder);
    const destinations = await resolvePlaces(input.destinations, input.language, geocoder);
    await requireRoutable(providers, [...origins, ...destinations], input.profile);
    const table = await providers.router.table(origins, destinations, input.profile);
    const convert = (cells: (number | null)[][], divisor: number, decimals: number) =>
      origins.map((_, row) =>
        destinations.map((_, column) => {
          const value = cells[row]?.[column];
          return value === null || value === undefined ? null : roundTo(value / divisor, decimals);
        }),
      );
    return {
      summary: `${origins.length} × ${destinations.length} ${input.profile} matrix`,
      body: {
        profile: input.profile,
        origins: origins.map(placeOutput),
        destinations: destinations.map(placeOutput),
        durations_min: convert(table.durationsS, 60, 1),
        distances_km: convert(table.distancesM, 1000, 2),
      },
    };
  },
});
