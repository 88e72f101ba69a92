import t from 'tap';
import { OUTPUT_SCHEMAS } from '../../../plugins/map-tools/schemas.js';
import { startMap } from './helpers.js';

const CASINO = 'Casino Square';
const STATION = 'Monaco Station';

t.test('the map child lists eleven read-only tools, each with an output schema', async (t) => {
  const { client } = await startMap(t);
  const { tools } = await client.listTools();
  t.same(tools.map((tool) => tool.name).sort(), Object.keys(OUTPUT_SCHEMAS).sort());
  for (const tool of tools) {
    t.equal(tool.annotations?.readOnlyHint, true, `${tool.name} is read-only`);
    t.equal(tool.outputSchema?.type, 'object', `${tool.name} declares an output schema`);
  }
});

t.test('geocode on both providers', async (t) => {
  const map = await startMap(t);
  const result = await map.call('geocode', { query: CASINO });
  t.notOk(result.isError);
  const output = result.structuredContent ?? {};
  t.equal(output.untrusted, true);
  t.equal(output.source, 'openstreetmap');
  t.equal(output.provider, 'geocoder_a');
  t.match(output.results, [{ label: 'Casino Square, Monaco', latitude: 43.7396, longitude: 7.4276, osm_id: 'way/1001' }]);
  t.match(result.content[0]?.text, /Casino Square/);
  const request = map.fake.of('nominatim')[0];
  t.equal(request?.query.get('limit'), '3', 'default limit 3');
  t.equal(request?.query.get('accept-language'), 'en', 'default language en');

  const french = await map.ok('geocode', { query: 'Beausoleil', countrycodes: 'FR, mc', language: 'fr', limit: 10 });
  t.match(french.results, [{ label: 'Beausoleil Market, France (fr)' }]);
  t.equal(map.fake.of('nominatim')[1]?.query.get('countrycodes'), 'fr,mc');
  t.match(await map.fail('geocode', { query: CASINO, countrycodes: 'fr' }), /No place found/, 'countrycodes narrows geocoder_a');
  t.match(await map.fail('geocode', { query: CASINO, countrycodes: 'France' }), /Input validation error/);

  const fuzzy = await map.ok('geocode', { query: 'Casinno', provider: 'geocoder_b', countrycodes: 'fr' });
  t.match(fuzzy, { provider: 'geocoder_b', count: 1, results: [{ label: 'Casino Square, Avenue X 1, Monaco', osm_id: 'way/1001' }] });
  t.notOk(map.fake.of('photon')[0]?.query.has('countrycodes'), 'countrycodes applies to geocoder_a only');

  t.match(await map.fail('geocode', { query: 'Atlantis' }), /No place found for "Atlantis"/);
  t.match(await map.fail('geocode', { query: '' }), /Input validation error/);
  t.match(await map.fail('geocode', { query: 'x'.repeat(301) }), /Input validation error/);
  t.match(await map.fail('geocode', { query: 'a', limit: 11 }), /Input validation error/);
  t.match(await map.fail('geocode', { query: 'a', provider: 'geocoder_c' }), /Input validation error/);
});

t.test('reverse_geocode', async (t) => {
  const map = await startMap(t);
  const output = await map.ok('reverse_geocode', { latitude: 43.7397, longitude: 7.4277 });
  t.match(output, { latitude: 43.7397, result: { label: 'Casino Square, Monaco', osm_id: 'way/1001' }, untrusted: true, source: 'openstreetmap' });
  t.match(await map.fail('reverse_geocode', { latitude: 0, longitude: -30 }), /No address or place found near 0,-30/);
  t.match(await map.fail('reverse_geocode', { latitude: 91, longitude: 0 }), /Input validation error/);
  t.match(await map.fail('reverse_geocode', { latitude: 0, longitude: 181 }), /Input validation error/);
});

t.test('route: totals, legs, steps capped at 100, per-profile engine paths', async (t) => {
  const map = await startMap(t);
  const two = await map.ok('route', { waypoints: [CASINO, '43.7388,7.4197'], profile: 'foot' });
  t.match(two, { profile: 'foot', engine: 'default', waypoints: [{ input: CASINO, label: 'Casino Square, Monaco', osm_id: 'way/1001' }, { label: '43.7388,7.4197' }] });
  t.notOk('legs' in two, 'no legs for two waypoints');
  t.notOk('steps' in two, 'no steps unless asked');
  t.ok((two.duration_s as number) > 0 && typeof two.distance_text === 'string' && typeof two.duration_text === 'string');
  const osrmPath = map.fake.of('osrm')[0]?.path ?? '';
  t.match(osrmPath, /^\/osrm\/routed-foot\/route\/v1\/foot\/7\.4276,43\.7396;7\.4197,43\.7388$/, 'a foot route goes to the foot instance');

  const car = await map.ok('route', { waypoints: [CASINO, '43.7388,7.4197'], profile: 'car' });
  t.ok((car.duration_s as number) < (two.duration_s as number), 'the car answer differs from the foot answer');
  t.match(map.fake.of('osrm')[1]?.path, /^\/osrm\/routed-car\/route\/v1\/car\//);

  const three = await map.ok('route', { waypoints: [CASINO, STATION, 'Prince Palace'], profile: 'bike', include_steps: true });
  t.equal((three.legs as unknown[]).length, 2, 'per-leg summaries for three waypoints');
  t.match(three.legs, [
    { from: 'Casino Square, Monaco', to: 'Monaco Station, Monaco' },
    { from: 'Monaco Station, Monaco', to: 'Prince Palace, Monaco' },
  ]);
  t.equal((three.steps as unknown[]).length, 100, 'first 100 steps only');
  t.equal(three.steps_total, 120);
  t.equal(three.steps_truncated, true);
  t.match(three.steps, [{ instruction: /^Head/ }]);

  const short = await map.ok('route', { waypoints: [CASINO, STATION], profile: 'car', include_steps: true });
  t.equal(short.steps_truncated, false);

  t.match(await map.fail('route', { waypoints: [CASINO, 'North Pole Camp'], profile: 'car' }), /No car route connects "Casino Square, Monaco" → "North Pole Camp"/);
  t.match(await map.fail('route', { waypoints: [CASINO, 'Atlantis'], profile: 'car' }), /No place found for "Atlantis"/);
  t.match(await map.fail('route', { waypoints: [CASINO], profile: 'car' }), /Input validation error/);
  t.match(await map.fail('route', { waypoints: Array(26).fill(CASINO), profile: 'car' }), /Input validation error/);
  t.match(await map.fail('route', { waypoints: [CASINO, STATION], profile: 'plane' }), /Input validation error/);
  t.match(await map.fail('route', { waypoints: ['95,7', STATION], profile: 'car' }), /"95,7" is not a valid "lat,lon"/);
  const many = await map.ok('route', { waypoints: Array.from({ length: 25 }, (_, index) => `43.7${index},7.42`), profile: 'car' });
  t.equal((many.legs as unknown[]).length, 24, '25 waypoints are allowed');
});

t.test('route_matrix: minutes, kilometres, null cells, the 25-place rule', async (t) => {
  const map = await startMap(t);
  const output = await map.ok('route_matrix', { origins: [CASINO, STATION], destinations: ['Prince Palace', 'North Pole Camp'], profile: 'car' });
  const durations = output.durations_min as (number | null)[][];
  const distances = output.distances_km as (number | null)[][];
  t.equal(durations.length, 2);
  t.ok((durations[0]?.[0] ?? 0) > 0 && (distances[0]?.[0] ?? 0) > 0);
  t.equal(durations[0]?.[1], null, 'no route: null');
  t.equal(distances[1]?.[1], null);
  const request = map.fake.of('osrm')[0];
  t.equal(request?.query.get('sources'), '0;1');
  t.equal(request?.query.get('destinations'), '2;3');
  t.match(await map.fail('route_matrix', { origins: Array(12).fill('1,1'), destinations: Array(12).fill('2,2').concat(['3,3', '4,4']), profile: 'car' }), /Input validation error/);
  t.match(await map.fail('route_matrix', { origins: Array(13).fill('1,1'), destinations: ['2,2'], profile: 'car' }), /Input validation error/);
  const twelve = Array.from({ length: 12 }, (_, index) => `43.7${index},7.4`);
  const full = await map.ok('route_matrix', { origins: twelve, destinations: twelve, profile: 'foot' });
  t.equal((full.durations_min as unknown[]).length, 12, '12 origins and 12 destinations are allowed');
});

t.test('optimize_route: round trip and fixed ends, always the default trip service', async (t) => {
  const map = await startMap(t, { ALT_ROUTING_API_KEY: 'secret-ors-key-12345' });
  const round = await map.ok('optimize_route', { stops: [CASINO, 'Prince Palace', STATION, 'Larvotto Beach'], profile: 'car' });
  t.equal(round.roundtrip, true);
  const stops = round.stops as { input_index: number; label: string }[];
  t.equal(stops[0]?.input_index, 0, 'the tour starts at the first stop');
  t.same(stops.map((stop) => stop.input_index).sort(), [0, 1, 2, 3]);
  t.equal((round.legs as unknown[]).length, 4, 'a round trip has a leg back to the start');
  t.match(round.legs, [{ from: 'Casino Square, Monaco' }, {}, {}, { to: 'Casino Square, Monaco' }]);
  t.match(map.fake.of('osrm')[0]?.path, /\/trip\/v1\/car\//);
  t.equal(map.fake.of('ors').length, 0, 'the alternative service is never used for trips');

  const open = await map.ok('optimize_route', { stops: [CASINO, 'Prince Palace', STATION, 'Larvotto Beach'], profile: 'foot', roundtrip: false });
  const openStops = open.stops as { input_index: number }[];
  t.equal(openStops[0]?.input_index, 0);
  t.equal(openStops[3]?.input_index, 3, 'the last stop is the end');
  t.equal((open.legs as unknown[]).length, 3);
  t.equal(map.fake.of('osrm')[1]?.query.get('destination'), 'last');

  t.match(await map.fail('optimize_route', { stops: [CASINO, STATION], profile: 'car' }), /Input validation error/);
  t.match(await map.fail('optimize_route', { stops: Array(13).fill(CASINO), profile: 'car' }), /Input validation error/);
  t.match(await map.fail('optimize_route', { stops: [CASINO, STATION, 'North Pole Camp'], profile: 'car' }), /No car tour connects all 3 stops/);
});

t.test('isochrone on the isochrone engine: bbox and compass reach', async (t) => {
  const map = await startMap(t);
  const output = await map.ok('isochrone', { center: CASINO, profile: 'foot', minutes: 10 });
  t.match(output, { profile: 'foot', engine: 'default', minutes: 10, reachable: true, center: { label: 'Casino Square, Monaco' } });
  const reach = output.reach_m as Record<string, number>;
  t.ok((reach.n ?? 0) > (reach.s ?? 0) * 3, 'reach differs per direction');
  t.equal(output.max_reach_m, reach.n);
  const bbox = output.bbox as { south: number; north: number; west: number; east: number };
  t.ok(bbox.north > 43.7396 && bbox.south < 43.7396 && bbox.east > 7.4276 && bbox.west < 7.4276);
  const body = JSON.parse(map.fake.of('valhalla')[0]?.body ?? '{}') as { costing: string; contours: unknown[] };
  t.equal(body.costing, 'pedestrian');
  t.same(body.contours, [{ time: 10 }]);

  const byDistance = await map.ok('isochrone', { center: '43.7396,7.4276', profile: 'car', kilometers: 2 });
  t.match(byDistance, { kilometers: 2 });
  t.same((JSON.parse(map.fake.of('valhalla')[1]?.body ?? '{}') as { contours?: unknown }).contours, [{ distance: 2 }]);

  t.match(await map.fail('isochrone', { center: CASINO, profile: 'foot' }), /exactly one of "minutes" or "kilometers"/);
  t.match(await map.fail('isochrone', { center: CASINO, profile: 'foot', minutes: 5, kilometers: 1 }), /exactly one of "minutes" or "kilometers"/);
  t.match(await map.fail('isochrone', { center: CASINO, profile: 'foot', minutes: 121 }), /Input validation error/);
  t.match(await map.fail('isochrone', { center: CASINO, profile: 'foot', kilometers: 0.05 }), /Input validation error/);
  t.match(await map.fail('isochrone', { center: CASINO, profile: 'foot', kilometers: 100.5 }), /Input validation error/);
  t.match(await map.fail('isochrone', { center: 'North Pole Camp', profile: 'foot', minutes: 5 }), /isochrone engine answered HTTP 400: .*No suitable edges/);
});

t.test('find_nearby_pois: sorted by distance, shortcuts, raw tags, limits', async (t) => {
  const map = await startMap(t);
  const output = await map.ok('find_nearby_pois', { near: CASINO, category: 'cafe' });
  const pois = output.pois as { name: string | null; osm_id: string; distance_m: number; tags: Record<string, string> }[];
  t.match(output, { category: 'cafe', tag_filter: 'amenity=cafe', radius_m: 1000, near: { label: 'Casino Square, Monaco' } });
  t.equal(output.count, pois.length);
  t.same(
    pois.map((poi) => poi.osm_id),
    ['node/2003', 'node/2001', 'way/2002', 'node/2005', 'node/2006'],
    'nearest first',
  );
  for (let index = 1; index < pois.length; index += 1) t.ok((pois[index]?.distance_m ?? 0) >= (pois[index - 1]?.distance_m ?? 0));
  t.match(pois[1], { name: 'Café de Paris', tags: { cuisine: 'coffee_shop', opening_hours: 'Mo-Su 08:00-02:00', website: 'https://example.test/cafe', phone: '+377 1', wheelchair: 'yes' } });
  t.notOk('note' in (pois[1]?.tags ?? {}), 'only core tags');
  t.equal(pois[0]?.name, null, 'an unnamed element');
  t.match(new URLSearchParams(map.fake.of('overpass')[0]?.body ?? '').get('data'), /out center 200;$/);

  const french = await map.ok('find_nearby_pois', { near: '43.7399,7.4279', category: 'cafe', limit: 1, radius_m: 50, language: 'fr' });
  t.match(french.pois, [{ name: 'Café de Paris FR' }]);
  t.equal((french.pois as unknown[]).length, 1);

  const raw = await map.ok('find_nearby_pois', { near: CASINO, category: 'railway=station' });
  t.match(raw, { tag_filter: 'railway=station', pois: [{ osm_id: 'relation/2007', name: 'Gare' }] });
  const key = await map.ok('find_nearby_pois', { near: CASINO, category: 'cuisine', radius_m: 10000 });
  t.match(key.pois, [{ osm_id: 'node/2001' }, { osm_id: 'node/2004' }]);
  const station = await map.ok('find_nearby_pois', { near: CASINO, category: 'train_station' });
  t.equal(station.tag_filter, 'railway=station|railway=halt');

  const injected = await map.ok('find_nearby_pois', { near: CASINO, category: 'name="];out;node(1);(["x' });
  t.equal(injected.count, 0, 'a quote cannot end the tag value');
  const query = new URLSearchParams(map.fake.of('overpass').at(-1)?.body ?? '').get('data') ?? '';
  t.match(query, /\["name"="\\"\];out;node\(1\);\(\[\\"x"\]/, 'quotes are escaped inside the value');
  const quoted = await map.ok('find_nearby_pois', { near: CASINO, category: 'name:en=Quote "Bar"' });
  t.match(quoted.pois, [{ osm_id: 'node/2008', name: 'Quote "Bar"' }]);

  t.match(await map.fail('find_nearby_pois', { near: CASINO, category: 'bad key!' }), /neither a category shortcut nor a map tag/);
  t.match(await map.fail('find_nearby_pois', { near: CASINO, category: 'amenity=' }), /neither a category shortcut/);
  t.match(await map.fail('find_nearby_pois', { near: CASINO, category: 'amenity=a\u0001b' }), /neither a category shortcut/);
  t.match(await map.fail('find_nearby_pois', { near: CASINO, category: 'x'.repeat(101) }), /Input validation error/);
  t.match(await map.fail('find_nearby_pois', { near: CASINO, category: 'cafe', radius_m: 49 }), /Input validation error/);
  t.match(await map.fail('find_nearby_pois', { near: CASINO, category: 'cafe', radius_m: 10001 }), /Input validation error/);
  t.match(await map.fail('find_nearby_pois', { near: CASINO, category: 'cafe', limit: 26 }), /Input validation error/);
  const none = await map.call('find_nearby_pois', { near: 'North Pole Camp', category: 'cafe' });
  t.notOk(none.isError);
  t.match(none.content[0]?.text, /No cafe within 1.0 km of North Pole Camp/);
});

t.test('poi_details: all tags up to 60, values cut at 500, centre and link', async (t) => {
  const map = await startMap(t);
  const heavy = await map.ok('poi_details', { osm_id: 'way/2009' });
  const tags = heavy.tags as Record<string, string>;
  t.equal(Object.keys(tags).length, 60);
  t.equal(heavy.tag_count, 72);
  t.equal(heavy.tags_truncated, true);
  t.equal(tags.description?.length, 501, '500 characters and an ellipsis');
  t.match(heavy, { osm_id: 'way/2009', name: 'Tag Heavy', latitude: 43.735, longitude: 7.421, coordinates_are_center: true, map_url: 'https://www.openstreetmap.org/way/2009' });
  const node = await map.ok('poi_details', { osm_id: 'node/2001' });
  t.match(node, { coordinates_are_center: false, tags_truncated: false, tags: { note: 'not a core tag' } });
  t.match(await map.fail('poi_details', { osm_id: 'node/999' }), /No map element node\/999 exists/);
  t.match(await map.fail('poi_details', { osm_id: 'area/1' }), /Input validation error/);
  t.match(await map.fail('poi_details', { osm_id: 'node/1;out' }), /Input validation error/);
});

t.test('suggest_meeting_point: fairest venue, tie-break, alternatives', async (t) => {
  const map = await startMap(t);
  const output = await map.ok('suggest_meeting_point', { locations: [CASINO, STATION] });
  t.match(output, { profile: 'foot', venue_category: 'cafe', search_radius_m: 1500 });
  const suggestion = output.suggestion as { osm_id: string; max_minutes: number; total_minutes: number; travel: { from: string; minutes: number }[] };
  const alternatives = output.alternatives as { max_minutes: number; total_minutes: number }[];
  t.equal(suggestion.travel.length, 2);
  t.equal(suggestion.max_minutes, Math.max(...suggestion.travel.map((leg) => leg.minutes)));
  t.ok(alternatives.length >= 1 && alternatives.length <= 3);
  for (const alternative of alternatives) t.ok(alternative.max_minutes >= suggestion.max_minutes, 'smallest worst case first');
  t.notOk(
    [suggestion, ...(alternatives as unknown as { osm_id: string }[])].some((venue) => venue.osm_id === 'node/2006'),
    'an unreachable venue is skipped',
  );
  const midpoint = output.midpoint as { latitude: number; longitude: number };
  t.ok(Math.abs(midpoint.latitude - 43.7392) < 0.001 && Math.abs(midpoint.longitude - 7.42365) < 0.001);

  t.match(await map.fail('suggest_meeting_point', { locations: [CASINO, STATION], venue_category: 'zoo' }), /No zoo within 1.5 km of the midpoint/);
  t.match(await map.fail('suggest_meeting_point', { locations: [CASINO] }), /Input validation error/);
  t.match(await map.fail('suggest_meeting_point', { locations: Array(9).fill(CASINO) }), /Input validation error/);
  t.match(await map.fail('suggest_meeting_point', { locations: [CASINO, STATION], search_radius_m: 99 }), /Input validation error/);
  t.match(
    await map.fail('suggest_meeting_point', { locations: ['43.7384,7.4236', '43.7384,7.4236'], venue_category: 'amenity=cafe', search_radius_m: 100, profile: 'car' }),
    /None of the 1 amenity=cafe venues/,
  );
});

t.test('straight_line_distance offline for coordinates; map_link', async (t) => {
  const map = await startMap(t);
  const distance = await map.ok('straight_line_distance', { from: '48.8566,2.3522', to: '51.5074,-0.1278' });
  t.ok(Math.abs((distance.distance_km as number) - 343.56) < 0.5, 'Paris to London is about 343.6 km');
  t.match(distance, { formula: /haversine/, accuracy: /0\.5 %/, distance_text: '344 km' });
  t.equal(map.fake.requests.length, 0, 'coordinates need no service');
  const named = await map.ok('straight_line_distance', { from: CASINO, to: STATION });
  t.ok((named.distance_m as number) > 600 && (named.distance_m as number) < 700);

  const marker = await map.ok('map_link', { place: CASINO });
  t.match(marker, { kind: 'marker', url: 'https://www.openstreetmap.org/?mlat=43.7396&mlon=7.4276#map=17/43.7396/7.4276' });
  const directions = await map.ok('map_link', { from: CASINO, to: '43.7388,7.4197', profile: 'bike' });
  t.match(directions, { kind: 'directions', directions_engine: 'fossgis_osrm_bike', url: /\/directions\?engine=fossgis_osrm_bike&route=43\.7396%2C7\.4276%3B43\.7388%2C7\.4197$/ });
  t.match(await map.ok('map_link', { from: CASINO, to: STATION }), { directions_engine: 'fossgis_osrm_foot' });
  t.match(await map.ok('map_link', { from: CASINO, to: STATION, profile: 'car' }), { directions_engine: 'fossgis_osrm_car' });
  t.match(await map.fail('map_link', {}), /either "place", or both "from" and "to"/);
  t.match(await map.fail('map_link', { from: CASINO }), /either "place", or both "from" and "to"/);
  t.match(await map.fail('map_link', { place: CASINO, to: STATION }), /not both/);
});
