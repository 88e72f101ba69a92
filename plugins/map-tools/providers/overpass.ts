import { Type } from 'typebox';
import type { ElementId, LatLon, MapElement, PoiSource, TagFilter } from './types.js';
import type { ServiceClient } from './http.js';
import { UpstreamError } from '../errors.js';
import { expectShape, round } from './wire.js';

const Element = Type.Object({
  type: Type.String(),
  id: Type.Number(),
  lat: Type.Optional(Type.Number()),
  lon: Type.Optional(Type.Number()),
  center: Type.Optional(Type.Object({ lat: Type.Number(), lon: Type.Number() })),
  tags: Type.Optional(Type.Record(Type.String(), Type.String())),
});
const Answer = Type.Object({ elements: Type.Array(Element), remark: Type.Optional(Type.String()) });

/** Server-side time limit of every query, in seconds. */
const QUERY_TIMEOUT_S = 25;

/**
 * The map-data query service: the Overpass API. Several endpoints may be configured; a
 * query moves on to the next one when an endpoint is rate-limited (429), failing (5xx)
 * or unreachable. The shared client caps concurrent queries.
 */
export class OverpassSource implements PoiSource {
  constructor(
    private readonly client: ServiceClient,
    private readonly endpoints: readonly string[],
  ) {}

  async nearby(center: LatLon, radiusM: number, filters: readonly TagFilter[], max: number): Promise<MapElement[]> {
    const around = `(around:${Math.round(radiusM)},${round(center.lat)},${round(center.lon)})`;
    const clauses = filters.map((filter) => `nwr${tagSelector(filter)}${around};`).join('');
    const elements = await this.#query(`[out:json][timeout:${QUERY_TIMEOUT_S}];(${clauses});out center ${Math.max(1, Math.floor(max))};`);
    return elements;
  }

  async element(id: ElementId): Promise<MapElement | undefined> {
    const [type, number] = id.split('/');
    const elements = await this.#query(`[out:json][timeout:${QUERY_TIMEOUT_S}];${type}(${number});out center;`);
    return elements[0];
  }

  async #query(query: string): Promise<MapElement[]> {
    let lastError: UpstreamError | undefined;
    for (const endpoint of this.endpoints) {
      try {
        const answer = await this.client.json({
          url: new URL(endpoint),
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ data: query }).toString(),
        });
        const parsed = expectShape(this.client.service, Answer, answer);
        if (parsed.remark?.includes('error') && parsed.elements.length === 0) {
          throw new UpstreamError(this.client.service, 200, parsed.remark.slice(0, 200));
        }
        return parsed.elements.flatMap(toElement);
      } catch (error) {
        if (!(error instanceof UpstreamError) || !isRetryable(error)) throw error;
        lastError = error;
      }
    }
    throw lastError ?? new UpstreamError(this.client.service, undefined, 'no endpoint is configured');
  }
}

function isRetryable(error: UpstreamError): boolean {
  return error.status === undefined || error.status === 429 || error.status >= 500;
}

/** `["key"]` or `["key"="value"]`, with quotes and backslashes escaped so a value cannot end the string. */
export function tagSelector(filter: TagFilter): string {
  const quote = (text: string) =>
    `"${text
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/\\/g, '\\\\')
      .replace(/"/g, '\\"')}"`;
  return filter.value === undefined ? `[${quote(filter.key)}]` : `[${quote(filter.key)}=${quote(filter.value)}]`;
}

function toElement(element: { type: string; id: number; lat?: number; lon?: number; center?: { lat: number; lon: number }; tags?: Record<string, string> }): MapElement[] {
  const position = element.center ?? (element.lat !== undefined && element.lon !== undefined ? { lat: element.lat, lon: element.lon } : undefined);
  if (!position || !['node', 'way', 'relation'].includes(element.type)) return [];
  return [{ id: `${element.type}/${element.id}`, lat: position.lat, lon: position.lon, tags: element.tags ?? {} }];
}
