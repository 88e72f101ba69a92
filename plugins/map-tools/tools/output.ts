import { formatDistance, formatDuration, roundTo } from '../geo.js';
import type { ResolvedPlace } from '../places.js';
import type { RouteLeg } from '../providers/types.js';

export function placeOutput(place: ResolvedPlace) {
  return {
    input: place.input,
    label: place.label,
    latitude: roundTo(place.lat, 7),
    longitude: roundTo(place.lon, 7),
    ...(place.elementId ? { osm_id: place.elementId } : {}),
  };
}

export function amountOutput(distanceM: number, durationS: number) {
  return {
    distance_m: Math.round(distanceM),
    duration_s: Math.round(durationS),
    distance_text: formatDistance(distanceM),
    duration_text: formatDuration(durationS),
  };
}

export function legsOutput(legs: readonly RouteLeg[], stops: readonly ResolvedPlace[]) {
  return legs.map((leg, index) => ({
    from: stops[index]?.label ?? '',
    to: stops[(index + 1) % stops.length]?.label ?? '',
    ...amountOutput(leg.distanceM, leg.durationS),
  }));
}
