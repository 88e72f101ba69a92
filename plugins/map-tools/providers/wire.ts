import type { Static, TSchema } from 'typebox';
import Value from 'typebox/value';
import { UpstreamError } from '../errors.js';

/** Checks an upstream answer against the documented shape of its wire format. */
export function expectShape<Schema extends TSchema>(service: string, schema: Schema, value: unknown): Static<Schema> {
  if (!Value.Check(schema, value)) throw new UpstreamError(service, 200, 'the answer did not have the documented shape');
  return value;
}

/** `lon,lat` pairs joined by `;`, the coordinate path segment of OSRM-style APIs. */
export function lonLatPath(points: readonly { lat: number; lon: number }[]): string {
  return points.map((point) => `${round(point.lon)},${round(point.lat)}`).join(';');
}

/** Seven decimals are about 1 cm: enough for routing, and stable cache keys. */
export function round(value: number): number {
  return Math.round(value * 1e7) / 1e7;
}
