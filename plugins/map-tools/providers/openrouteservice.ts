import { Type } from 'typebox';
import type { Budget, IsochroneEngine, LatLon, Profile, RouteEngine, RouteOptions, RouteResult } from './types.js';
import type { ServiceClient } from './http.js';
import { UpstreamError, redact } from '../errors.js';
import { GeoJsonFeatures, ringsOf } from './geojson.js';
import { expectShape, round } from './wire.js';

const PROFILES: Record<Profile, string> = { foot: 'foot-walking', car: 'driving-car', bike: 'cycling-regular' };
const LANGUAGES = new Set(['cs', 'da', 'de', 'en', 'eo', 'es', 'fi', 'fr', 'gr', 'he', 'hu', 'id', 'it', 'ja', 'nb', 'ne', 'nl', 'pl', 'pt', 'ro', 'ru', 'tr', 'ua', 'vi', 'zh']);
/** ORS error codes that mean "no route" (2009) or "a point is not near a road" (2010). */
const NO_ROUTE_CODES = new Set([2009, 2010]);

const Step = Type.Object({ distance: Type.Number(), duration: Type.Number(), instruction: Type.String() });
const Segment = Type.Object({ distance: Type.Optional(Type.Number()), duration: Type.Optional(Type.Number()), steps: Type.Optional(Type.Array(Step)) });
const DirectionsAnswer = Type.Object({
  routes: Type.Array(
    Type.Object({
      summary: Type.Object({ distance: Type.Optional(Type.Number()), duration: Type.Optional(Type.Number()) }),
      segments: Type.Array(Segment),
    }),
  ),
});
const ErrorAnswer = Type.Object({ error: Type.Union([Type.Object({ code: Type.Number(), message: Type.Optional(Type.String()) }), Type.String()]) });

/**
 * The alternative routing service (OpenRouteService): routes and isochrones, used only
 * when an API key is configured. The key travels in the Authorization header, never in
 * a URL, so it cannot leak through a logged or echoed address.
 */
export class OpenRouteService implements RouteEngine, IsochroneEngine {
  constructor(
    private readonly client: ServiceClient,
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async route(waypoints: readonly LatLon[], profile: Profile, options: RouteOptions): Promise<RouteResult | undefined> {
    const primary = options.language.toLowerCase().split('-')[0] ?? 'en';
    const body = JSON.stringify({
      coordinates: waypoints.map((point) => [round(point.lon), round(point.lat)]),
      instructions: options.steps,
      language: LANGUAGES.has(primary) ? primary : 'en',
      units: 'm',
    });
    const answer = await this.#post(`/v2/directions/${PROFILES[profile]}`, body);
    if (answer === undefined) return undefined;
    const route = expectShape(this.client.service, DirectionsAnswer, answer).routes[0];
    if (!route) return undefined;
    return {
      distanceM: route.summary.distance ?? 0,
      durationS: route.summary.duration ?? 0,
      legs: route.segments.map((segment) => ({
        distanceM: segment.distance ?? 0,
        durationS: segment.duration ?? 0,
        ...(options.steps ? { steps: (segment.steps ?? []).map((step) => ({ instruction: step.instruction, distanceM: step.distance, durationS: step.duration })) } : {}),
      })),
    };
  }

  async reachable(center: LatLon, profile: Profile, budget: Budget): Promise<LatLon[][]> {
    const body = JSON.stringify({
      locations: [[round(center.lon), round(center.lat)]],
      range: ['seconds' in budget ? budget.seconds : budget.meters],
      range_type: 'seconds' in budget ? 'time' : 'distance',
    });
    const answer = await this.#post(`/v2/isochrones/${PROFILES[profile]}`, body);
    if (answer === undefined) return [];
    return ringsOf(expectShape(this.client.service, GeoJsonFeatures, answer));
  }

  /** The parsed answer, or undefined for ORS's "no route" errors. */
  async #post(path: string, body: string): Promise<unknown> {
    const answer = await this.client.json({
      url: new URL(`${this.baseUrl}${path}`),
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: this.apiKey, accept: 'application/json, application/geo+json' },
      body,
      acceptStatuses: [400, 404],
    });
    const problem = typeof answer === 'object' && answer !== null && 'error' in answer;
    if (!problem) return answer;
    const error = expectShape(this.client.service, ErrorAnswer, answer).error;
    if (typeof error === 'string') throw new UpstreamError(this.client.service, 400, redact(error, [this.apiKey]).slice(0, 200));
    if (NO_ROUTE_CODES.has(error.code)) return undefined;
    throw new UpstreamError(this.client.service, 400, `error code ${error.code}${error.message ? `: ${redact(error.message, [this.apiKey]).slice(0, 200)}` : ''}`);
  }
}
