import { InputError } from '../errors.js';
import { resolvePlaces } from '../places.js';
import { requireRoutable } from './coverage.js';
import { defineTool, type Defaulted } from './tool.js';
import { amountOutput, legsOutput, placeOutput } from './output.js';

/** The turn-by-turn summary keeps only the start of long routes. */
export const MAX_STEPS = 100;

export const route = defineTool({
  name: 'route',
  title: 'Route between places',
  description:
    'Real-world travel distance and time between two or more places (names, addresses or "lat,lon"), visited in the given order. Returns readable and raw (meters, seconds) totals, per-leg summaries for more than two waypoints, and optionally the first 100 turn-by-turn steps.',
  async run(input: Defaulted<'route', 'include_steps' | 'language'>, engines) {
    const providers = await engines();
    const places = await resolvePlaces(input.waypoints, input.language, providers.geocoders.geocoder_a);
    await requireRoutable(providers, places, input.profile);
    const result = await providers.routes.route(places, input.profile, { steps: input.include_steps, language: input.language });
    if (!result) throw new InputError(`No ${input.profile} route connects ${places.map((place) => `"${place.label}"`).join(' → ')}.`);
    const totals = amountOutput(result.distanceM, result.durationS);
    const body = {
      profile: input.profile,
      engine: providers.alternativeRouting ? ('alternative' as const) : ('default' as const),
      waypoints: places.map(placeOutput),
      ...totals,
      ...(places.length > 2 ? { legs: legsOutput(result.legs, places) } : {}),
    };
    if (!input.include_steps) return { summary: `${input.profile}: ${totals.distance_text}, ${totals.duration_text}`, body };
    const allSteps = result.legs.flatMap((leg) => leg.steps ?? []);
    const steps = allSteps.slice(0, MAX_STEPS).map((step) => ({ instruction: step.instruction, distance_m: Math.round(step.distanceM), duration_s: Math.round(step.durationS) }));
    return {
      summary: `${input.profile}: ${totals.distance_text}, ${totals.duration_text}, ${allSteps.length} steps`,
      body: { ...body, steps, steps_total: allSteps.length, steps_truncated: allSteps.length > MAX_STEPS },
    };
  },
});
