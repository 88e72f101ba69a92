import { createServer } from 'node:http';
import t from 'tap';
import { ResponseCache } from '../../../plugins/map-tools/providers/cache.js';
import { ServiceClient } from '../../../plugins/map-tools/providers/http.js';
import { mapSettingsFromEnvironment } from '../../../plugins/map-tools/settings.js';
import { listenOnLoopback } from '../../helpers/net.js';
import { ORS_KEY } from './fakes/services.js';
import { startMap } from './helpers.js';

const CASINO = 'Casino Square';

t.test('an identifying User-Agent on every request; no redirect is followed', async (t) => {
  const map = await startMap(t);
  await map.ok('route', { waypoints: [CASINO, 'Monaco Station'], profile: 'foot' });
  await map.ok('find_nearby_pois', { near: '43.7396,7.4276', category: 'cafe' });
  await map.ok('geocode', { query: 'Casino', provider: 'geocoder_b' });
  await map.ok('isochrone', { center: '43.7396,7.4276', profile: 'bike', minutes: 5 });
  t.ok(map.fake.requests.length >= 5);
  for (const request of map.fake.requests) t.match(request.headers['user-agent'], /^mcp-hub-map-tools\/\d/, `${request.service} saw the User-Agent`);
  const text = await map.fail('geocode', { query: 'redirect-me' });
  t.match(text, /geocoder_a answered HTTP 302: redirect not followed/);
  t.notOk(
    map.fake.requests.some((request) => request.path.startsWith('/elsewhere')),
    'the redirect target was never requested',
  );
});

t.test('upstream errors: status named, HTML dropped, bodies truncated, timeouts, bad answers', async (t) => {
  const map = await startMap(t, { MAP_TIMEOUT_MS: '300' });
  const html = await map.fail('geocode', { query: 'html-error' });
  t.match(html, /geocoder_a answered HTTP 502: no usable error message/);
  t.notMatch(html, /<|script/);
  const long = await map.fail('geocode', { query: 'long-error', provider: 'geocoder_b' });
  t.match(long, /geocoder_b answered HTTP 500: Internal failure x+…/);
  t.ok(/Internal failure x+…/.exec(long)![0].length <= 201, 'the body is cut at 200 characters');
  t.match(await map.fail('geocode', { query: 'slow-answer' }), /geocoder_a failed: no answer within 300 ms\. Try again later/);
  t.match(await map.fail('geocode', { query: 'not-json' }), /the answer was not JSON/);
  t.match(await map.fail('geocode', { query: 'wrong-shape' }), /did not have the documented shape/);
  t.match(await map.fail('route', { waypoints: ['43.7,7.4', 'wrong-shape'], profile: 'car' }), /geocoder_a answered HTTP 200: the answer did not have the documented shape/);
  t.match(await map.fail('isochrone', { center: '43.7396,7.4276', profile: 'car', minutes: 1.5, language: 'html-error' }), /Input validation error/);
});

t.test('unreachable services and OSRM failures are tool errors', async (t) => {
  const map = await startMap(t, { MAP_OSRM_URL: 'http://127.0.0.1:9/osrm/routed-{profile}', MAP_VALHALLA_URL: 'http://127.0.0.1:9' });
  t.match(await map.fail('route', { waypoints: ['43.7,7.4', '43.71,7.41'], profile: 'car' }), /routing engine failed: the service could not be reached/);
  t.match(await map.fail('isochrone', { center: '43.7,7.4', profile: 'car', minutes: 3 }), /isochrone engine failed/);
  const bad = await startMap(t, { MAP_OSRM_URL: `${map.fake.url}/osrm/routed-car` });
  t.match(
    await bad.fail('route', { waypoints: ['43.7,7.4', '43.71,7.41'], profile: 'foot' }),
    /answered HTTP 400: InvalidOptions: instance car cannot serve foot/,
    'a single-profile instance refuses another profile instead of answering silently',
  );
});

t.test('with no extract and no network, errors name no backing product and tell the operator what to do', async (t) => {
  const nowhere = 'http://127.0.0.1:9';
  const map = await startMap(t, {
    MAP_NOMINATIM_URL: nowhere,
    MAP_PHOTON_URL: nowhere,
    MAP_OSRM_URL: `${nowhere}/routed-{profile}`,
    MAP_VALHALLA_URL: nowhere,
    MAP_OVERPASS_URLS: `${nowhere}/api/interpreter`,
    MAP_REQUEST_INTERVAL_MS: '0',
  });
  const failures = {
    geocode: await map.fail('geocode', { query: 'Monaco' }),
    'geocode (geocoder_b)': await map.fail('geocode', { query: 'Monaco', provider: 'geocoder_b' }),
    reverse_geocode: await map.fail('reverse_geocode', { latitude: 43.73, longitude: 7.42 }),
    route: await map.fail('route', { waypoints: ['43.73,7.42', '43.74,7.43'], profile: 'car' }),
    isochrone: await map.fail('isochrone', { center: '43.73,7.42', profile: 'foot', minutes: 5 }),
    find_nearby_pois: await map.fail('find_nearby_pois', { near: '43.73,7.42', category: 'cafe' }),
  };
  for (const [tool, text] of Object.entries(failures)) {
    t.notMatch(text, /nominatim|photon|osrm|valhalla|overpass|openrouteservice/i, `${tool}: no backing product named`);
    t.match(
      text,
      /could not be reached\. This server cannot reach the online map services: its operator must give it network access to them .*, or set MAP_OSM_FILE to a local \.osm\.pbf extract to answer offline\./,
      `${tool}: what to do`,
    );
    t.notMatch(text, /Try again later/, `${tool}: waiting does not bring a network`);
  }
  t.match(failures.geocode, /^geocode failed because the geocoder_a failed: the service could not be reached\./);
  t.match(failures.route, /^route failed because the routing engine failed/);
});

t.test('request spacing: 1 s between the starts of two requests by default', async (t) => {
  t.equal(mapSettingsFromEnvironment({ MAP_REQUEST_INTERVAL_MS: '' }).requestIntervalMs, 1000, 'the default');
  // The policy on a clock the test holds: what each request was made to wait, not how long it took.
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  const port = await listenOnLoopback(t, server);
  const waits: number[] = [];
  let now = 5_000;
  const clock = { now: () => now, sleep: async (ms: number) => void waits.push(ms) };
  const client = new ServiceClient({ service: 'spaced', userAgent: 'test', minIntervalMs: 1000, maxConcurrent: Infinity, timeoutMs: 30_000, cache: new ResponseCache(0), clock });
  await Promise.all(['a', 'b', 'c'].map((query) => client.json({ url: new URL(`http://127.0.0.1:${port}/?q=${query}`) })));
  t.same(waits, [1000, 2000], 'the second waits for its slot, the third for the one after');
  now += 2_500;
  await client.json({ url: new URL(`http://127.0.0.1:${port}/?q=d`) });
  t.same(waits, [1000, 2000, 500], 'a request after a pause waits only what is left of its slot');
});

t.test('response cache: a repeated question is answered without a request', async (t) => {
  const map = await startMap(t, { MAP_CACHE_TTL_MS: '60000' });
  await map.ok('geocode', { query: CASINO });
  await map.ok('geocode', { query: CASINO });
  await map.ok('geocode', { query: CASINO, limit: 5 });
  t.equal(map.fake.of('nominatim').length, 2, 'only the different question reached the service');
});

t.test('Overpass: failover on 429 and 5xx, other errors are not retried, at most 2 at once', async (t) => {
  const map = await startMap(t, {}, { overpassDelayMs: 150 });
  const failover = map;
  const base = map.fake.url;
  const chain = await startMap(t, { MAP_OVERPASS_URLS: `${base}/overpass-429/api/interpreter, ${base}/overpass-503/api/interpreter,${base}/overpass/api/interpreter` });
  const output = await chain.ok('poi_details', { osm_id: 'node/2001' });
  t.equal(output.name, 'Café de Paris');
  t.same(
    map.fake.requests.map((request) => request.service),
    ['overpass-429', 'overpass-503', 'overpass'],
    'each endpoint in turn',
  );

  const allDown = await startMap(t, { MAP_OVERPASS_URLS: `${base}/overpass-429/api/interpreter,${base}/overpass-503/api/interpreter` });
  t.match(await allDown.fail('poi_details', { osm_id: 'node/2001' }), /map-data query service answered HTTP 503: no usable error message/);
  const client = await startMap(t, { MAP_OVERPASS_URLS: `${base}/overpass-400/api/interpreter,${base}/overpass/api/interpreter` });
  const before = failover.fake.requests.length;
  t.match(await client.fail('poi_details', { osm_id: 'node/2001' }), /answered HTTP 400: Error: line 1: parse error/);
  t.equal(failover.fake.requests.length - before, 1, 'a 400 is not retried elsewhere');
  t.match(await map.fail('find_nearby_pois', { near: '43.7,7.4', category: 'runtime-error' }), /map-data query service answered HTTP 200: runtime error/);

  await Promise.all([10, 20, 30, 40, 50].map((radius) => map.ok('find_nearby_pois', { near: '43.7396,7.4276', category: 'cafe', radius_m: 100 + radius })));
  t.equal(map.fake.overpassPeak, 2, 'never more than two queries in flight');
});

t.test('alternative routing service: route and isochrone switch, key sent but never shown', async (t) => {
  const map = await startMap(t, { ALT_ROUTING_API_KEY: ORS_KEY });
  const route = await map.ok('route', { waypoints: ['Casino Square', 'Monaco Station', 'Prince Palace'], profile: 'bike', include_steps: true, language: 'de-CH' });
  t.match(route, { engine: 'alternative', steps: [{ instruction: 'Head north (ORS)' }, {}], legs: [{}, {}] });
  const request = map.fake.of('ors')[0];
  t.equal(request?.path, '/ors/v2/directions/cycling-regular');
  t.equal(request?.headers.authorization, ORS_KEY);
  t.notMatch(request?.path ?? '', /secret/, 'the key is not in the URL');
  t.equal((JSON.parse(request?.body ?? '{}') as { language?: unknown }).language, 'de');
  t.equal(map.fake.of('osrm').length, 0);

  const iso = await map.ok('isochrone', { center: '43.7396,7.4276', profile: 'car', kilometers: 1 });
  t.match(iso, { engine: 'alternative', reachable: true });
  t.match(map.fake.of('ors')[1], { path: '/ors/v2/isochrones/driving-car' });
  t.match(JSON.parse(map.fake.of('ors')[1]?.body ?? '{}'), { range: [1000], range_type: 'distance' });
  await map.ok('isochrone', { center: '43.7396,7.4276', profile: 'foot', minutes: 2 });
  t.match(JSON.parse(map.fake.of('ors')[2]?.body ?? '{}'), { range: [120], range_type: 'time' });
  t.equal(map.fake.of('valhalla').length, 0);

  t.match(await map.fail('route', { waypoints: ['43.7,7.4', 'North Pole Camp'], profile: 'foot' }), /No foot route/);
  const leaked = await map.fail('route', { waypoints: ['0,0', '43.7,7.4'], profile: 'foot' });
  t.match(leaked, /alternative routing service answered HTTP 500: .*<API_KEY>/);
  t.notMatch(leaked, new RegExp(ORS_KEY));
  const matrix = await map.ok('route_matrix', { origins: ['43.7,7.4'], destinations: ['43.71,7.41'], profile: 'car' });
  t.ok(matrix.durations_min, 'the matrix stays on the default engine');
  t.equal(map.fake.of('osrm').length, 1);

  const wrongKey = await startMap(t, { ALT_ROUTING_API_KEY: 'another-secret-key' });
  const denied = await wrongKey.fail('route', { waypoints: ['43.7,7.4', '43.71,7.41'], profile: 'foot' });
  t.match(denied, /answered HTTP 403: {"error":"Access to this API has been disallowed"}/);
  t.notMatch(denied, /another-secret-key/);
});

t.test('MAP_ALLOW_TOOLS and MAP_DENY_TOOLS', async (t) => {
  const essential = await startMap(t, { MAP_ALLOW_TOOLS: 'essential' });
  t.same((await essential.client.listTools()).tools.map((tool) => tool.name).sort(), ['find_nearby_pois', 'geocode', 'map_link', 'poi_details', 'reverse_geocode', 'route']);
  const narrowed = await startMap(t, { MAP_ALLOW_TOOLS: 'essential, isochrone', MAP_DENY_TOOLS: 'route,poi_details' });
  t.same((await narrowed.client.listTools()).tools.map((tool) => tool.name).sort(), ['find_nearby_pois', 'geocode', 'isochrone', 'map_link', 'reverse_geocode']);
  const denied = await startMap(t, { MAP_DENY_TOOLS: 'essential' });
  t.equal((await denied.client.listTools()).tools.length, 5);
});
