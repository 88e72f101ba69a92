import { InputError } from '../errors.js';
import { resolvePlaces } from '../places.js';
import { requireRoutable } from './coverage.js';
import { defineTool, type Defaulted } from './tool.js';
import { amountOutput, legsOutput, placeOutput } from './output.js';

export const optimizeRoute = defineTool({
  name: 'optimize_route',
  title: 'Optimize the visiting order',
  description:
    'Find the best visiting order of 3 to 12 stops (traveling salesman). roundtrip true (default) returns to the first stop; false starts at the first stop and ends at the last. Returns the ordered stops, total distance and time, and per-leg summaries.',
  async run(input: Defaulted<'optimize_route', 'roundtrip' | 'language'>, engines) {
    const providers = await engines();
    const stops = await resolvePlaces(input.stops, input.language, providers.geocoders.geocoder_a);
    await requireRoutable(providers, stops, input.profile);
    const trip = await providers.router.trip(stops, input.profile, { roundtrip: input.roundtrip });
    if (!trip) throw new InputError(`No ${input.profile} tour connects all ${stops.length} stops.`);
    const ordered = trip.order.flatMap((index) => {
      const stop = stops[index];
      return stop ? [{ stop, index }] : [];
    });
    const legStops = ordered.map(({ stop }) => stop);
    const totals = amountOutput(trip.distanceM, trip.durationS);
    return {
      summary: `${input.profile} ${input.roundtrip ? 'round trip' : 'trip'}: ${legStops.map((stop) => stop.label).join(' → ')}; ${totals.distance_text}, ${totals.duration_text}`,
      body: {
        profile: input.profile,
        roundtrip: input.roundtrip,
        stops: ordered.map(({ stop, index }) => ({ ...placeOutput(stop), input_index: index })),
        ...totals,
        legs: legsOutput(trip.legs, legStops),
      },
    };
  },
});
