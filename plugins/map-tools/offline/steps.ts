import type { FeatureStore } from './features.js';
import { bearingDeg } from './geo.js';
import type { RoadGraph } from './graph.js';
import { localName } from './labels.js';
import type { Path } from './search.js';

/** One manoeuvre in the vocabulary of OSRM-style engines, so the same wording applies. */
export interface Maneuver {
  type: string;
  modifier?: string;
  name: string;
  distanceM: number;
  durationS: number;
}

interface Stretch {
  name: string;
  roundabout: boolean;
  distanceM: number;
  durationS: number;
  /** Bearings where the stretch begins and ends, undefined for a stretch of no length. */
  bearingIn?: number;
  bearingOut?: number;
}

const DIRECTIONS = ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'];

/**
 * Turn-by-turn manoeuvres along a path: consecutive edges of one street name form a
 * stretch; a stretch begins with a turn whose modifier comes from the change of
 * bearing; a roundabout and the street it is left by form one manoeuvre.
 */
export function maneuvers(features: FeatureStore, graph: RoadGraph, time: Float32Array, path: Path, language: string): Maneuver[] {
  const stretches: Stretch[] = [];
  for (const piece of path.pieces) {
    const share = piece.end - piece.start;
    const tags = features.tagsOf(graph.roadFeature[graph.edgeRoad[piece.edge]!]!);
    const name = localName(tags, language) ?? tags.ref ?? '';
    const roundabout = tags.junction === 'roundabout' || tags.junction === 'circular';
    const source = graph.edgeSource[piece.edge]!;
    const target = graph.edgeTarget[piece.edge]!;
    const bearing = share > 0 ? bearingDeg(graph.vertexLat[source]!, graph.vertexLon[source]!, graph.vertexLat[target]!, graph.vertexLon[target]!) : undefined;
    const last = stretches[stretches.length - 1];
    if (last && last.name === name && last.roundabout === roundabout) {
      last.distanceM += share * graph.edgeLength[piece.edge]!;
      last.durationS += share * time[piece.edge]!;
      if (bearing !== undefined) {
        last.bearingIn ??= bearing;
        last.bearingOut = bearing;
      }
    } else {
      stretches.push({ name, roundabout, distanceM: share * graph.edgeLength[piece.edge]!, durationS: share * time[piece.edge]!, bearingIn: bearing, bearingOut: bearing });
    }
  }

  const result: Maneuver[] = [];
  for (let i = 0; i < stretches.length; i++) {
    const stretch = stretches[i]!;
    if (i === 0) {
      const heading = stretch.bearingIn === undefined ? undefined : DIRECTIONS[Math.round(stretch.bearingIn / 45) % 8];
      result.push({ type: 'depart', ...(heading && { modifier: heading }), name: stretch.name, distanceM: stretch.distanceM, durationS: stretch.durationS });
      continue;
    }
    const previous = stretches[i - 1]!;
    const modifier = turnModifier(previous.bearingOut, stretch.bearingIn);
    const next = stretches[i + 1];
    if (stretch.roundabout && next) {
      result.push({ type: 'roundabout', name: next.name, distanceM: stretch.distanceM + next.distanceM, durationS: stretch.durationS + next.durationS });
      i++;
      continue;
    }
    const type = modifier === 'straight' ? 'new name' : 'turn';
    result.push({ type, modifier, name: stretch.name, distanceM: stretch.distanceM, durationS: stretch.durationS });
  }
  result.push({ type: 'arrive', name: stretches[stretches.length - 1]?.name ?? '', distanceM: 0, durationS: 0 });
  return result;
}

function turnModifier(from: number | undefined, to: number | undefined): string {
  if (from === undefined || to === undefined) return 'straight';
  const angle = ((to - from + 540) % 360) - 180;
  const size = Math.abs(angle);
  if (size < 20) return 'straight';
  if (size > 170) return 'uturn';
  const side = angle > 0 ? 'right' : 'left';
  if (size < 45) return `slight ${side}`;
  if (size > 135) return `sharp ${side}`;
  return side;
}
