import { DISTANCE_ACCURACY, DISTANCE_FORMULA, bearingDegrees, formatDistance, haversineMeters, roundTo } from '../geo.js';
import { deferredGeocoder, resolvePlaces } from '../places.js';
import { defineTool, type Defaulted } from './tool.js';
import { placeOutput } from './output.js';
import { HUB_ERROR_CODES, HubError } from '../../../core/plugin/errors.js';

export const straightLineDistance = defineTool({
  name: 'straight_line_distance',
  title: 'Straight-line distance',
  description:
    'Great-circle ("as the crow flies") distance between two places, independent of roads. Literal "lat,lon" inputs are computed fully offline; names are geocoded first. Uses the haversine formula on a sphere, within about 0.5 % of the ellipsoidal distance.',
  async run(input: Defaulted<'straight_line_distance', 'language'>, engines) {
    const [from, to] = await resolvePlaces([input.from, input.to], input.language, deferredGeocoder(engines));
    if (!from || !to) throw new HubError(HUB_ERROR_CODES.INTERNAL, 'two places were resolved as one');
    const meters = haversineMeters(from, to);
    return {
      summary: `${formatDistance(meters)} in a straight line from ${from.label} to ${to.label}`,
      body: {
        from: placeOutput(from),
        to: placeOutput(to),
        distance_m: roundTo(meters, 1),
        distance_km: roundTo(meters / 1000, 3),
        distance_text: formatDistance(meters),
        initial_bearing_deg: roundTo(bearingDegrees(from, to), 1),
        formula: DISTANCE_FORMULA,
        accuracy: DISTANCE_ACCURACY,
      },
    };
  },
});
