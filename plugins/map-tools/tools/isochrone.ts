import { InputError } from '../errors.js';
import { COMPASS, bearingDegrees, compassOf, formatDistance, haversineMeters, roundTo, type Compass } from '../geo.js';
import { requireRoutable } from './coverage.js';
import { resolvePlace } from '../places.js';
import type { LatLon } from '../providers/types.js';
import { defineTool, type Defaulted } from './tool.js';
import { placeOutput } from './output.js';

export const isochrone = defineTool({
  name: 'isochrone',
  title: 'Reachable area',
  description:
    'Compact summary of the area reachable from a place within a time (minutes, 1 to 120) or distance (kilometers, 0.1 to 100) budget: give exactly one. Returns the bounding box and the straight-line reach in meters per compass direction.',
  async run(input: Defaulted<'isochrone', 'language'>, engines) {
    if ((input.minutes === undefined) === (input.kilometers === undefined)) {
      throw new InputError('Give exactly one of "minutes" or "kilometers".');
    }
    const providers = await engines();
    const center = await resolvePlace(input.center, input.language, providers.geocoders.geocoder_a);
    await requireRoutable(providers, [center], input.profile);
    const budget = input.minutes !== undefined ? { seconds: input.minutes * 60 } : { meters: (input.kilometers ?? 0) * 1000 };
    const points = (await providers.isochrone.reachable(center, input.profile, budget)).flat();
    const reach = reachByDirection(center, points);
    const maxReach = Math.max(0, ...Object.values(reach).map((value) => value ?? 0));
    const budgetText = input.minutes !== undefined ? `${input.minutes} min` : `${input.kilometers} km`;
    return {
      summary: points.length ? `${input.profile}, ${budgetText} from ${center.label}: up to ${formatDistance(maxReach)} away` : `Nothing reachable from ${center.label}`,
      body: {
        center: placeOutput(center),
        profile: input.profile,
        engine: providers.alternativeRouting ? ('alternative' as const) : ('default' as const),
        ...(input.minutes !== undefined ? { minutes: input.minutes } : { kilometers: input.kilometers }),
        reachable: points.length > 0,
        bbox: boundingBox(points),
        reach_m: reach,
        max_reach_m: maxReach,
      },
    };
  },
});

function boundingBox(points: readonly LatLon[]) {
  if (points.length === 0) return null;
  const lats = points.map((point) => point.lat);
  const lons = points.map((point) => point.lon);
  return {
    south: roundTo(Math.min(...lats), 6),
    west: roundTo(Math.min(...lons), 6),
    north: roundTo(Math.max(...lats), 6),
    east: roundTo(Math.max(...lons), 6),
  };
}

function reachByDirection(center: LatLon, points: readonly LatLon[]): Record<Compass, number | null> {
  const reach = Object.fromEntries(COMPASS.map((direction) => [direction, null])) as Record<Compass, number | null>;
  for (const point of points) {
    const distance = haversineMeters(center, point);
    if (distance < 1) continue;
    const direction = compassOf(bearingDegrees(center, point));
    reach[direction] = Math.max(reach[direction] ?? 0, Math.round(distance));
  }
  return reach;
}
