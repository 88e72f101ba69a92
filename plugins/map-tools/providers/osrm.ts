import { Type } from 'typebox';
import type { CostTable, LatLon, Profile, RouteLeg, RouteOptions, RouteResult, Router, TripResult } from './types.js';
import type { ServiceClient } from './http.js';
import { UpstreamError } from '../errors.js';
import { describeManeuver } from './instructions.js';
import { expectShape, lonLatPath } from './wire.js';

const Step = Type.Object({
  distance: Type.Number(),
  duration: Type.Number(),
  name: Type.Optional(Type.String()),
  maneuver: Type.Object({ type: Type.String(), modifier: Type.Optional(Type.String()) }),
});
const Leg = Type.Object({ distance: Type.Number(), duration: Type.Number(), steps: Type.Optional(Type.Array(Step)) });
const Route = Type.Object({ distance: Type.Number(), duration: Type.Number(), legs: Type.Array(Leg) });
const Status = Type.Object({ code: Type.String(), message: Type.Optional(Type.String()) });
const RouteAnswer = Type.Object({ code: Type.Literal('Ok'), routes: Type.Array(Route) });
const Cells = Type.Array(Type.Array(Type.Union([Type.Number(), Type.Null()])));
const TableAnswer = Type.Object({ code: Type.Literal('Ok'), durations: Cells, distances: Type.Optional(Cells) });
const TripAnswer = Type.Object({
  code: Type.Literal('Ok'),
  trips: Type.Array(Route),
  waypoints: Type.Array(Type.Object({ waypoint_index: Type.Integer(), trips_index: Type.Integer() })),
});

/** The answers that mean "no route" rather than a failure. */
const NO_ROUTE_CODES = new Set(['NoRoute', 'NoSegment', 'NoTrips']);

/**
 * The default routing engine: the OSRM HTTP API (route, table, trip). The public
 * community servers run one OSRM instance per profile under its own path, so the base
 * URL carries a `{profile}` placeholder and a foot request never reaches the car
 * instance. The profile segment of the path names the profile as well.
 */
export class OsrmRouter implements Router {
  constructor(
    private readonly client: ServiceClient,
    private readonly baseUrl: string,
  ) {}

  async route(waypoints: readonly LatLon[], profile: Profile, options: RouteOptions): Promise<RouteResult | undefined> {
    const url = this.#url('route', profile, waypoints);
    url.searchParams.set('overview', 'false');
    url.searchParams.set('alternatives', 'false');
    url.searchParams.set('steps', String(options.steps));
    const answer = await this.#call(url);
    if (answer === undefined) return undefined;
    const route = expectShape(this.client.service, RouteAnswer, answer).routes[0];
    return route && { distanceM: route.distance, durationS: route.duration, legs: route.legs.map((leg) => toLeg(leg, options.steps)) };
  }

  async table(origins: readonly LatLon[], destinations: readonly LatLon[], profile: Profile): Promise<CostTable> {
    const url = this.#url('table', profile, [...origins, ...destinations]);
    url.searchParams.set('sources', origins.map((_, index) => index).join(';'));
    url.searchParams.set('destinations', destinations.map((_, index) => origins.length + index).join(';'));
    url.searchParams.set('annotations', 'duration,distance');
    const answer = await this.#call(url);
    if (answer === undefined) {
      const empty = () => origins.map(() => destinations.map(() => null));
      return { durationsS: empty(), distancesM: empty() };
    }
    const table = expectShape(this.client.service, TableAnswer, answer);
    if (!table.distances) throw new UpstreamError(this.client.service, 200, 'the table has no distances');
    return { durationsS: table.durations, distancesM: table.distances };
  }

  async trip(stops: readonly LatLon[], profile: Profile, options: { roundtrip: boolean }): Promise<TripResult | undefined> {
    const url = this.#url('trip', profile, stops);
    url.searchParams.set('roundtrip', String(options.roundtrip));
    url.searchParams.set('source', 'first');
    if (!options.roundtrip) url.searchParams.set('destination', 'last');
    url.searchParams.set('overview', 'false');
    url.searchParams.set('steps', 'false');
    const answer = await this.#call(url);
    if (answer === undefined) return undefined;
    const trip = expectShape(this.client.service, TripAnswer, answer);
    const tour = trip.trips[0];
    if (!tour || trip.trips.length > 1) return undefined;
    const order = trip.waypoints.map((waypoint, index) => ({ index, position: waypoint.waypoint_index })).sort((a, b) => a.position - b.position);
    return { order: order.map((entry) => entry.index), distanceM: tour.distance, durationS: tour.duration, legs: tour.legs.map((leg) => toLeg(leg, false)) };
  }

  #url(service: 'route' | 'table' | 'trip', profile: Profile, points: readonly LatLon[]): URL {
    const base = this.baseUrl.split('{profile}').join(profile);
    return new URL(`${base}/${service}/v1/${profile}/${lonLatPath(points)}`);
  }

  /** The parsed answer, or undefined when the engine says no route exists. */
  async #call(url: URL): Promise<unknown> {
    const answer = await this.client.json({ url, acceptStatuses: [400] });
    const status = expectShape(this.client.service, Status, answer);
    if (NO_ROUTE_CODES.has(status.code)) return undefined;
    if (status.code !== 'Ok') throw new UpstreamError(this.client.service, 400, `${status.code}${status.message ? `: ${status.message.slice(0, 200)}` : ''}`);
    return answer;
  }
}

function toLeg(
  leg: { distance: number; duration: number; steps?: { distance: number; duration: number; name?: string; maneuver: { type: string; modifier?: string } }[] },
  withSteps: boolean,
): RouteLeg {
  const result: RouteLeg = { distanceM: leg.distance, durationS: leg.duration };
  if (withSteps) {
    result.steps = (leg.steps ?? []).map((step) => ({
      instruction: describeManeuver(step.maneuver.type, step.maneuver.modifier, step.name ?? ''),
      distanceM: step.distance,
      durationS: step.duration,
    }));
  }
  return result;
}
