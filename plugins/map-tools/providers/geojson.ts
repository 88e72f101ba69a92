import { Type, type Static } from 'typebox';
import type { LatLon } from './types.js';

const Position = Type.Array(Type.Number(), { minItems: 2 });
const Geometry = Type.Union([
  Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Position)) }),
  Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Type.Array(Position))) }),
  Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) }),
]);

/** A GeoJSON FeatureCollection of area outlines, as isochrone services answer. */
export const GeoJsonFeatures = Type.Object({ features: Type.Array(Type.Object({ geometry: Geometry })) });

/** The outer rings of every feature, as lat/lon points (GeoJSON writes lon first). */
export function ringsOf(collection: Static<typeof GeoJsonFeatures>): LatLon[][] {
  const toPoints = (ring: number[][]) => ring.map((position) => ({ lat: position[1] ?? 0, lon: position[0] ?? 0 }));
  return collection.features.flatMap(({ geometry }) => {
    if (geometry.type === 'LineString') return [toPoints(geometry.coordinates)];
    if (geometry.type === 'Polygon') return geometry.coordinates.slice(0, 1).map(toPoints);
    return geometry.coordinates.flatMap((polygon) => polygon.slice(0, 1).map(toPoints));
  });
}
