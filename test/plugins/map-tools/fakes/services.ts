import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DETOUR, PLACES, POIS, SPEEDS, distance, unreachable, type FakePlace } from './world.js';

/** One request as the fake saw it. */
export interface Recorded {
  service: string;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/**
 * Local stand-ins for the six services, each speaking its documented wire format, all on
 * one loopback port under their own path prefixes. Special query words trigger failures.
 */
export interface FakeServices {
  url: string;
  requests: Recorded[];
  of(service: string): Recorded[];
  /** Most Overpass queries in flight at once. */
  overpassPeak: number;
  env(overrides?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export const ORS_KEY = 'secret-ors-key-12345';

export async function startFakeServices(t: { teardown(fn: () => unknown): void }, options: { overpassDelayMs?: number } = {}): Promise<FakeServices> {
  const requests: Recorded[] = [];
  let inFlight = 0;
  const state = { overpassPeak: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake');
      const service = url.pathname.split('/')[1] ?? '';
      const record: Recorded = {
        service,
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      requests.push(record);
      const reply = async () => {
        if (service.startsWith('overpass')) {
          inFlight += 1;
          state.overpassPeak = Math.max(state.overpassPeak, inFlight);
          try {
            await new Promise((resolve) => setTimeout(resolve, options.overpassDelayMs ?? 0));
            overpass(record, response);
          } finally {
            inFlight -= 1;
          }
          return;
        }
        route(record, response);
      };
      void reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  t.teardown(close);
  return {
    url,
    requests,
    of: (name) => requests.filter((request) => request.service === name),
    get overpassPeak() {
      return state.overpassPeak;
    },
    env: (overrides = {}) => ({
      MAP_NOMINATIM_URL: `${url}/nominatim`,
      MAP_PHOTON_URL: `${url}/photon`,
      MAP_OSRM_URL: `${url}/osrm/routed-{profile}`,
      MAP_VALHALLA_URL: `${url}/valhalla`,
      MAP_OVERPASS_URLS: `${url}/overpass/api/interpreter`,
      MAP_ALT_ROUTING_URL: `${url}/ors`,
      MAP_REQUEST_INTERVAL_MS: '0',
      MAP_CACHE_TTL_MS: '0',
      MAP_TIMEOUT_MS: '2000',
      ...overrides,
    }),
    close,
  };
}

function json(response: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  response.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
}

/** Failure modes shared by every service, chosen by a magic word in the request. */
function failure(record: Recorded, response: ServerResponse): boolean {
  const text = decodeURIComponent(`${record.path}?${record.query.toString()} ${record.body}`).replace(/\+/g, ' ');
  if (text.includes('redirect-me')) {
    response.writeHead(302, { location: '/elsewhere/target' }).end();
    return true;
  }
  if (text.includes('html-error')) {
    response.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>');
    return true;
  }
  if (text.includes('long-error')) {
    response.writeHead(500, { 'content-type': 'text/plain' }).end(`Internal failure ${'x'.repeat(5000)}`);
    return true;
  }
  if (text.includes('slow-answer')) return true;
  if (text.includes('not-json')) {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{ not json');
    return true;
  }
  if (text.includes('wrong-shape')) {
    json(response, 200, { unexpected: true });
    return true;
  }
  return false;
}

function route(record: Recorded, response: ServerResponse): void {
  if (failure(record, response)) return;
  switch (record.service) {
    case 'nominatim':
      return nominatim(record, response);
    case 'photon':
      return photon(record, response);
    case 'osrm':
      return osrm(record, response);
    case 'valhalla':
      return valhalla(record, response);
    case 'ors':
      return ors(record, response);
    default:
      json(response, 404, { error: 'unknown service' });
  }
}

function findPlaces(query: string, fuzzy: boolean): FakePlace[] {
  const wanted = query.toLowerCase();
  return PLACES.filter((place) => {
    const name = place.name.toLowerCase();
    if (name.includes(wanted)) return true;
    return fuzzy && name.startsWith(wanted.slice(0, 4));
  });
}

function nominatim(record: Recorded, response: ServerResponse): void {
  const format = record.query.get('format');
  if (format !== 'jsonv2') return json(response, 400, { error: { code: 400, message: 'format' } });
  const toPlace = (place: FakePlace) => ({
    place_id: place.osm[1] * 10,
    lat: String(place.lat),
    lon: String(place.lon),
    display_name: record.query.get('accept-language') === 'fr' ? `${place.name} (fr)` : place.name,
    osm_type: place.osm[0],
    osm_id: place.osm[1],
    category: 'place',
  });
  if (record.path.endsWith('/search')) {
    const countries = record.query.get('countrycodes')?.split(',');
    const limit = Number(record.query.get('limit') ?? 10);
    const hits = findPlaces(record.query.get('q') ?? '', false).filter((place) => !countries || countries.includes(place.country));
    return json(response, 200, hits.slice(0, limit).map(toPlace));
  }
  if (record.path.endsWith('/reverse')) {
    const point = { lat: Number(record.query.get('lat')), lon: Number(record.query.get('lon')) };
    const nearest = PLACES.map((place) => ({ place, meters: distance(point, place) })).sort((a, b) => a.meters - b.meters)[0];
    if (!nearest || nearest.meters > 5000) return json(response, 200, { error: 'Unable to geocode' });
    return json(response, 200, toPlace(nearest.place));
  }
  json(response, 404, { error: 'no such endpoint' });
}

function photon(record: Recorded, response: ServerResponse): void {
  const feature = (place: FakePlace) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [place.lon, place.lat] },
    properties: {
      osm_type: place.osm[0][0]?.toUpperCase(),
      osm_id: place.osm[1],
      name: place.name.split(',')[0],
      street: 'Avenue X',
      housenumber: '1',
      city: 'Monaco',
      country: place.country === 'fr' ? 'France' : 'Monaco',
    },
  });
  if (record.path.endsWith('/api')) {
    const limit = Number(record.query.get('limit') ?? 10);
    return json(response, 200, {
      type: 'FeatureCollection',
      features: findPlaces(record.query.get('q') ?? '', true)
        .slice(0, limit)
        .map(feature),
    });
  }
  if (record.path.endsWith('/reverse')) {
    const point = { lat: Number(record.query.get('lat')), lon: Number(record.query.get('lon')) };
    const nearest = PLACES.filter((place) => distance(point, place) < 5000).sort((a, b) => distance(point, a) - distance(point, b));
    return json(response, 200, { type: 'FeatureCollection', features: nearest.slice(0, 1).map(feature) });
  }
  json(response, 404, { message: 'no such endpoint' });
}

type Point = { lat: number; lon: number };

function legCost(a: Point, b: Point, profile: string) {
  const meters = distance(a, b) * DETOUR;
  return { distance: meters, duration: meters / (SPEEDS[profile] ?? 1) };
}

/** OSRM under `/osrm/routed-<profile>/<service>/v1/<profile>/<coordinates>`. */
function osrm(record: Recorded, response: ServerResponse): void {
  const match = /^\/osrm\/routed-(\w+)\/(route|table|trip)\/v1\/(\w+)\/([^/]+)$/.exec(record.path);
  if (!match) return json(response, 400, { code: 'InvalidUrl', message: 'URL string malformed' });
  const [, instance = '', service, profile = '', coordinates = ''] = match;
  if (instance !== profile || !(profile in SPEEDS)) return json(response, 400, { code: 'InvalidOptions', message: `instance ${instance} cannot serve ${profile}` });
  const points = coordinates.split(';').map((pair) => {
    const [lon, lat] = pair.split(',').map(Number);
    return { lat: lat ?? 0, lon: lon ?? 0 };
  });
  const leg = (a: Point, b: Point, steps: boolean) => {
    const cost = legCost(a, b, profile);
    const stepList = Array.from({ length: 60 }, (_, index) => ({
      distance: cost.distance / 60,
      duration: cost.duration / 60,
      name: index % 2 ? 'Boulevard des Moulins' : '',
      maneuver: {
        type:
          index === 0
            ? 'depart'
            : index === 59
              ? 'arrive'
              : (['turn', 'continue', 'roundabout', 'fork', 'end of road', 'new name', 'merge', 'on ramp', 'off ramp', 'exit roundabout'][index % 10] ?? 'turn'),
        modifier: ['left', 'right', 'straight', 'uturn', undefined][index % 5],
      },
    }));
    return { ...cost, summary: '', weight: cost.duration, steps: steps ? stepList : [] };
  };
  if (service === 'route') {
    if (points.some(unreachable)) return json(response, 400, { code: 'NoRoute', message: 'Impossible route between points' });
    const steps = record.query.get('steps') === 'true';
    const legs = points.slice(1).map((point, index) => leg(points[index] ?? point, point, steps));
    const total = legs.reduce((sum, item) => ({ distance: sum.distance + item.distance, duration: sum.duration + item.duration }), { distance: 0, duration: 0 });
    return json(response, 200, {
      code: 'Ok',
      routes: [{ ...total, weight: total.duration, weight_name: 'routability', legs }],
      waypoints: points.map((point) => ({ location: [point.lon, point.lat], name: '' })),
    });
  }
  if (service === 'table') {
    const sources = (record.query.get('sources') ?? '').split(';').map(Number);
    const destinations = (record.query.get('destinations') ?? '').split(';').map(Number);
    const cell = (key: 'distance' | 'duration') =>
      sources.map((source) =>
        destinations.map((destination) => {
          const a = points[source];
          const b = points[destination];
          if (!a || !b || unreachable(a) || unreachable(b)) return null;
          return legCost(a, b, profile)[key];
        }),
      );
    return json(response, 200, { code: 'Ok', durations: cell('duration'), distances: cell('distance'), sources: [], destinations: [] });
  }
  if (points.some(unreachable)) return json(response, 400, { code: 'NoTrips', message: 'No trip visiting all destinations possible.' });
  const roundtrip = record.query.get('roundtrip') !== 'false';
  const remaining = points.map((_, index) => index).slice(1);
  const last = roundtrip ? undefined : remaining.pop();
  const order = [0];
  while (remaining.length) {
    const current = points[order[order.length - 1] ?? 0] ?? points[0];
    remaining.sort((a, b) => distance(current ?? { lat: 0, lon: 0 }, points[a] ?? current!) - distance(current ?? { lat: 0, lon: 0 }, points[b] ?? current!));
    order.push(remaining.shift() ?? 0);
  }
  if (last !== undefined) order.push(last);
  const visit = roundtrip ? [...order, 0] : order;
  const legs = visit.slice(1).map((index, position) => leg(points[visit[position] ?? 0] ?? points[0]!, points[index]!, false));
  const total = legs.reduce((sum, item) => ({ distance: sum.distance + item.distance, duration: sum.duration + item.duration }), { distance: 0, duration: 0 });
  json(response, 200, {
    code: 'Ok',
    trips: [{ ...total, weight: total.duration, legs }],
    waypoints: points.map((point, index) => ({ location: [point.lon, point.lat], waypoint_index: order.indexOf(index), trips_index: 0 })),
  });
}

/** A ring around `center` that reaches twice as far north as south, for the compass checks. */
function ring(center: Point, meters: number): number[][] {
  const factors = [2, 1, 1, 1, 0.5, 1, 1, 1];
  const positions = factors.map((factor, index) => {
    const angle = (index * Math.PI) / 4;
    const dNorth = Math.cos(angle) * meters * factor;
    const dEast = Math.sin(angle) * meters * factor;
    return [center.lon + dEast / (111_320 * Math.cos((center.lat * Math.PI) / 180)), center.lat + dNorth / 111_320];
  });
  return [...positions, positions[0] ?? [0, 0]];
}

function valhalla(record: Recorded, response: ServerResponse): void {
  if (record.method !== 'POST' || !record.path.endsWith('/isochrone')) return json(response, 404, { error: 'not found' });
  const body = JSON.parse(record.body) as { locations: Point[]; costing: string; contours: { time?: number; distance?: number }[]; polygons?: boolean };
  const center = body.locations[0] ?? { lat: 0, lon: 0 };
  if (unreachable(center)) return json(response, 400, { error_code: 171, error: 'No suitable edges near location', status_code: 400, status: 'Bad Request' });
  const speeds: Record<string, number> = { pedestrian: SPEEDS.foot ?? 1, auto: SPEEDS.car ?? 1, bicycle: SPEEDS.bike ?? 1 };
  const contour = body.contours[0] ?? {};
  const meters = contour.time !== undefined ? (contour.time * 60 * (speeds[body.costing] ?? 1)) / DETOUR : ((contour.distance ?? 0) * 1000) / DETOUR;
  const coordinates = ring(center, meters);
  const geometry = body.polygons ? { type: 'Polygon', coordinates: [coordinates] } : { type: 'LineString', coordinates };
  json(
    response,
    200,
    { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { contour: contour.time ?? contour.distance, metric: contour.time ? 'time' : 'distance' }, geometry }] },
    'application/geo+json',
  );
}

function ors(record: Recorded, response: ServerResponse): void {
  if (record.headers.authorization !== ORS_KEY) return json(response, 403, { error: 'Access to this API has been disallowed' });
  const profiles: Record<string, string> = { 'foot-walking': 'foot', 'driving-car': 'car', 'cycling-regular': 'bike' };
  const directions = /^\/ors\/v2\/directions\/([\w-]+)$/.exec(record.path);
  const isochrones = /^\/ors\/v2\/isochrones\/([\w-]+)$/.exec(record.path);
  const profile = profiles[(directions ?? isochrones)?.[1] ?? ''];
  if (record.method !== 'POST' || !profile) return json(response, 404, { error: { code: 2006, message: 'unknown profile' } });
  const body = JSON.parse(record.body) as { coordinates?: number[][]; locations?: number[][]; instructions?: boolean; range?: number[]; range_type?: string };
  if (directions) {
    const points = (body.coordinates ?? []).map(([lon = 0, lat = 0]) => ({ lat, lon }));
    if (points.some((point) => point.lat === 0 && point.lon === 0)) return json(response, 500, { error: { code: 2099, message: `upstream failure for key ${ORS_KEY}` } });
    if (points.some(unreachable)) return json(response, 404, { error: { code: 2009, message: 'Route could not be found' } });
    const segments = points.slice(1).map((point, index) => {
      const cost = legCost(points[index] ?? point, point, profile);
      const steps = body.instructions ? [{ distance: cost.distance, duration: cost.duration, type: 11, instruction: 'Head north (ORS)', name: '-', way_points: [0, 1] }] : [];
      return { distance: cost.distance * 1.1, duration: cost.duration * 1.1, steps };
    });
    const summary = { distance: segments.reduce((sum, item) => sum + item.distance, 0), duration: segments.reduce((sum, item) => sum + item.duration, 0) };
    return json(response, 200, { routes: [{ summary, segments, bbox: [], geometry: '' }], metadata: { service: 'routing' } });
  }
  const [lon = 0, lat = 0] = body.locations?.[0] ?? [];
  const value = body.range?.[0] ?? 0;
  const meters = body.range_type === 'distance' ? value : value * (SPEEDS[profile] ?? 1);
  json(
    response,
    200,
    { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { value }, geometry: { type: 'Polygon', coordinates: [ring({ lat, lon }, meters * 1.5)] } }] },
    'application/geo+json',
  );
}

/** Overpass: `/overpass…/api/interpreter`; `/overpass-429/…` and `/overpass-503/…` always fail. */
function overpass(record: Recorded, response: ServerResponse): void {
  if (record.service === 'overpass-429') return json(response, 429, { remark: 'rate limited' });
  if (record.service === 'overpass-503') return void response.writeHead(503, { 'content-type': 'text/html' }).end('<html>busy</html>');
  if (record.service === 'overpass-400') return void response.writeHead(400, { 'content-type': 'text/plain' }).end('Error: line 1: parse error');
  if (record.method !== 'POST') return json(response, 405, {});
  const query = new URLSearchParams(record.body).get('data') ?? '';
  if (query.includes('runtime-error')) return json(response, 200, { version: 0.6, elements: [], remark: 'runtime error: Query timed out in "query" at line 1 after 25 seconds.' });
  const element = /;(node|way|relation)\((\d+)\);out center;$/.exec(query);
  const toElement = (poi: (typeof POIS)[number]) =>
    poi.type === 'node' ? { type: 'node', id: poi.id, lat: poi.lat, lon: poi.lon, tags: poi.tags } : { type: poi.type, id: poi.id, center: { lat: poi.lat, lon: poi.lon }, tags: poi.tags };
  if (element) {
    const found = POIS.filter((poi) => poi.type === element[1] && poi.id === Number(element[2]));
    return json(response, 200, { version: 0.6, generator: 'fake', elements: found.map(toElement) });
  }
  const clauses = [...query.matchAll(/nwr\["((?:[^"\\]|\\.)*)"(?:="((?:[^"\\]|\\.)*)")?\]\(around:(\d+),([-\d.]+),([-\d.]+)\);/g)];
  if (clauses.length === 0) return void response.writeHead(400, { 'content-type': 'text/plain' }).end('Error: static error: parse error');
  const unescape = (text: string | undefined) => text?.replace(/\\(.)/g, '$1');
  const hits = POIS.filter((poi) =>
    clauses.some(([, key, value, radius, lat, lon]) => {
      const tag = poi.tags[unescape(key) ?? ''];
      const valueOk = value === undefined ? tag !== undefined : tag === unescape(value);
      return valueOk && distance({ lat: Number(lat), lon: Number(lon) }, poi) <= Number(radius);
    }),
  );
  const limit = Number(/out center (\d+);$/.exec(query)?.[1] ?? 1000);
  json(response, 200, { version: 0.6, generator: 'fake', elements: hits.slice(0, limit).map(toElement) });
}
