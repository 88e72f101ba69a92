import t from 'tap';
import { OfflineMap } from '../../../../plugins/map-tools/offline/engine.js';
import { haversineM } from '../../../../plugins/map-tools/offline/geo.js';
import { AT_SEA, KNOWN_PLACES, MONACO_PBF } from './extract.js';

const lines: string[] = [];
const map = await OfflineMap.load(MONACO_PBF, { log: (line) => lines.push(line) });

/** A point at `share` of the way along a road's vertices (by count), from the road graph. */
function alongWay(wayId: number, share: number): { lat: number; lon: number } {
  const g = map.graph;
  const feature = map.features.find('way', wayId);
  const road = g.roadFeature.indexOf(feature);
  const first = g.roadFirstSegment[road]!;
  const end = g.roadFirstSegment[road + 1]!;
  const vertices = [...Array.from(g.segmentFrom.subarray(first, end)), g.segmentTo[end - 1]!];
  const position = share * (vertices.length - 1);
  const a = vertices[Math.floor(position)]!;
  const b = vertices[Math.ceil(position)]!;
  const f = position - Math.floor(position);
  return { lat: g.vertexLat[a]! + f * (g.vertexLat[b]! - g.vertexLat[a]!), lon: g.vertexLon[a]! + f * (g.vertexLon[b]! - g.vertexLon[a]!) };
}

function highwayOf(wayId: number): string | undefined {
  return map.element('way', wayId)?.tags.highway;
}

t.test('loading reports the extract and builds every index', async (t) => {
  t.equal(map.stats.nodes, 180_118, 'every node of the file (as its NOTICE counts them)');
  t.equal(map.stats.ways, 27_377);
  t.equal(map.stats.relations, 212);
  t.ok(map.stats.vertices > 10_000 && map.stats.edges > 2 * map.stats.vertices * 0.9, 'a routable graph');
  t.ok(map.stats.features > 3000 && map.stats.features < map.stats.nodes / 2, 'only tagged elements are kept as features');
  t.match(lines.at(-1), /loaded monaco\.osm\.pbf: 180118 nodes, 27377 ways, 212 relations/);
});

t.test('geocoder_a finds the stadium, the museum and the square within 150 m of where they are', async (t) => {
  for (const [what, place] of Object.entries(KNOWN_PLACES)) {
    const [first] = map.geocode(place.query, { fuzzy: false, limit: 3, language: 'en' });
    t.ok(first, `${what} found`);
    if (first) t.ok(haversineM(first.lat, first.lon, place.lat, place.lon) < 150, `${what} within 150 m`);
  }
  const museum = map.geocode('oceanographic museum', { fuzzy: false, limit: 1, language: 'en' })[0];
  t.match(museum?.label, /^Oceanographic Museum/, 'names in other languages are searchable, and the label follows the language');
  const french = map.geocode('oceanographic museum', { fuzzy: false, limit: 1, language: 'fr' })[0];
  t.match(french?.label, /^Musée [Oo]céanographique/);
  const prefix = map.geocode('Stade Lou', { fuzzy: false, limit: 1, language: 'en' })[0];
  t.equal(prefix?.label, 'Stade Louis II', 'the last word may be a prefix');
  const withContext = map.geocode('Place du Casino, Monaco', { fuzzy: false, limit: 1, language: 'en' })[0];
  t.ok(withContext && haversineM(withContext.lat, withContext.lon, KNOWN_PLACES.square.lat, KNOWN_PLACES.square.lon) < 150, 'later comma parts only rank');
  t.same(map.geocode('Stade Luis II', { fuzzy: false, limit: 3, language: 'en' }), [], 'geocoder_a is not typo-tolerant');
  t.same(map.geocode(' , ', { fuzzy: false, limit: 3, language: 'en' }), []);
});

t.test('geocoder_a matches addresses, and the country filter keeps untagged places', async (t) => {
  const [address] = map.geocode('10 Avenue Princesse Grace', { fuzzy: false, limit: 3, language: 'en' });
  t.match(address?.label, /10 Avenue Princesse Grace/);
  const streets = map.geocode('Avenue Princesse Grace', { fuzzy: false, limit: 10, language: 'en', countryCodes: ['mc'] });
  t.ok(streets.length >= 1);
  t.same(map.geocode('Oceanographic Museum', { fuzzy: false, limit: 3, language: 'en', countryCodes: ['fr'] }), [], 'a place tagged addr:country=MC is left out for fr');
});

t.test('geocoder_b tolerates typos', async (t) => {
  for (const [typo, place] of [
    ['Stade Luis II', KNOWN_PLACES.stadium],
    ['Musee Oceanografique', KNOWN_PLACES.museum],
    ['Plase du Casino', KNOWN_PLACES.square],
  ] as const) {
    const [first] = map.geocode(typo, { fuzzy: true, limit: 3, language: 'en' });
    t.ok(first && haversineM(first.lat, first.lon, place.lat, place.lon) < 150, `${typo} finds ${place.query}`);
  }
  t.same(map.geocode('zzzzqqqq', { fuzzy: true, limit: 3, language: 'en' }), [], 'nothing close');
  t.same(map.geocode('!!', { fuzzy: true, limit: 3, language: 'en' }), []);
});

t.test('reverse geocoding a point in a named street names the street', async (t) => {
  const wayId = 4230044;
  const street = map.element('way', wayId)?.tags.name;
  t.equal(street, 'Avenue Princesse Grace', 'the way as the file has it');
  const match = map.reverse(alongWay(wayId, 0.5), 'en');
  t.equal(match?.street, street);
  t.match(match?.label, street ?? '');
  t.equal(map.reverse(AT_SEA, 'en'), undefined, 'nothing at sea');
  const house = map.geocode('10 Avenue Princesse Grace', { fuzzy: false, limit: 1, language: 'en' })[0];
  if (house) t.match(map.reverse(house, 'en')?.label, /10 Avenue Princesse Grace/, 'standing at an address gives the address');
});

t.test('a car respects a one-way street that a pedestrian walks against', async (t) => {
  const wayId = 55125292;
  const tags = map.element('way', wayId)?.tags;
  t.equal(tags?.oneway, 'yes', 'Avenue de la Gare is one-way in the file');
  const nearEnd = alongWay(wayId, 0.9);
  const nearStart = alongWay(wayId, 0.1);
  const foot = map.route([nearEnd, nearStart], 'foot', { steps: false, language: 'en' });
  const car = map.route([nearEnd, nearStart], 'car', { steps: false, language: 'en' });
  const carWithTheFlow = map.route([nearStart, nearEnd], 'car', { steps: false, language: 'en' });
  t.ok(foot && car && carWithTheFlow);
  if (!foot || !car || !carWithTheFlow) return;
  t.ok(foot.legs[0]?.wayIds.includes(wayId), 'the walker takes the street');
  t.ok(car.distanceM > 3 * foot.distanceM, `the car detours (${Math.round(car.distanceM)} m against ${Math.round(foot.distanceM)} m on foot)`);
  t.ok(carWithTheFlow.distanceM < 1.5 * foot.distanceM, 'with the flow the car goes straight');
  t.not(Math.round(car.distanceM), Math.round(foot.distanceM));
});

t.test('foot routes may use steps, car routes never', async (t) => {
  const wayId = 164379727;
  t.equal(highwayOf(wayId), 'steps', 'Montée du Riviera is a flight of steps in the file');
  const top = alongWay(wayId, 0);
  const bottom = alongWay(wayId, 1);
  const foot = map.route([top, bottom], 'foot', { steps: false, language: 'en' });
  const car = map.route([top, bottom], 'car', { steps: false, language: 'en' });
  t.ok(foot?.legs[0]?.wayIds.includes(wayId), 'the walker takes the steps');
  t.ok(car, 'a car route exists');
  t.notOk(
    car?.legs.flatMap((leg) => leg.wayIds).some((id) => highwayOf(id) === 'steps'),
    'no steps on the car route',
  );
  const bike = map.route([top, bottom], 'bike', { steps: false, language: 'en' });
  t.ok(bike && foot && bike.durationS > 0);
});

t.test('routes have distance, duration, legs and named turn-by-turn steps', async (t) => {
  const stadium = KNOWN_PLACES.stadium;
  const museum = KNOWN_PLACES.museum;
  const square = KNOWN_PLACES.square;
  const route = map.route([stadium, museum, square], 'car', { steps: true, language: 'en' });
  t.ok(route);
  if (!route) return;
  t.equal(route.legs.length, 2);
  t.ok(Math.abs(route.distanceM - route.legs.reduce((sum, leg) => sum + leg.distanceM, 0)) < 1e-6);
  t.ok(route.distanceM >= haversineM(stadium.lat, stadium.lon, museum.lat, museum.lon), 'never shorter than the straight line');
  const steps = route.legs[0]?.maneuvers ?? [];
  t.equal(steps[0]?.type, 'depart');
  t.equal(steps.at(-1)?.type, 'arrive');
  t.ok(
    steps.some((step) => step.name !== '' && step.type !== 'depart'),
    'steps carry street names',
  );
  const total = steps.reduce((sum, step) => sum + step.distanceM, 0);
  t.ok(Math.abs(total - (route.legs[0]?.distanceM ?? 0)) < 1, 'steps add up to the leg');
  t.equal(map.route([stadium, AT_SEA], 'foot', { steps: false, language: 'en' }), undefined, 'no route to the sea');
  const same = map.route([stadium, stadium], 'foot', { steps: true, language: 'en' });
  t.equal(same?.distanceM, 0, 'a route to the same point is empty');
});

t.test('the matrix has null-like cells where a point is unreachable', async (t) => {
  const points = [KNOWN_PLACES.stadium, KNOWN_PLACES.square, AT_SEA];
  const table = map.table(points, points, 'car');
  t.equal(table.length, 3);
  t.ok(table[0]?.[1] && table[0][1].durationS > 0 && table[0][1].distanceM > 0);
  t.equal(table[0]?.[0]?.durationS, 0);
  t.equal(table[0]?.[2], undefined, 'to the sea');
  t.same(table[2], [undefined, undefined, undefined], 'from the sea');
  const route = map.route([KNOWN_PLACES.stadium, KNOWN_PLACES.square], 'car', { steps: false, language: 'en' });
  t.ok(route && Math.abs((table[0]?.[1]?.durationS ?? 0) - route.durationS) < 1e-6, 'the matrix agrees with the route');
});

t.test('the visiting order starts at the first stop and covers every stop once', async (t) => {
  const stops = [KNOWN_PLACES.stadium, KNOWN_PLACES.square, KNOWN_PLACES.museum, { lat: 43.7365, lon: 7.4215 }];
  const round = map.trip(stops, 'foot', true);
  t.equal(round?.order[0], 0);
  t.same([...(round?.order ?? [])].sort(), [0, 1, 2, 3]);
  t.equal(round?.route.legs.length, 4, 'a round trip has a leg back');
  const open = map.trip(stops, 'foot', false);
  t.equal(open?.order.at(-1), 3, 'an open trip ends at the last stop');
  t.equal(open?.route.legs.length, 3);
  t.equal(map.trip([...stops, AT_SEA], 'foot', true), undefined, 'no tour reaches the sea');
});

t.test('an isochrone reach never shrinks as the budget grows', async (t) => {
  const center = KNOWN_PLACES.museum;
  let previous: ReturnType<typeof map.isochrone>;
  for (const minutes of [2, 5, 10, 15]) {
    const isochrone = map.isochrone(center, 'foot', { seconds: minutes * 60 });
    t.ok(isochrone);
    if (!isochrone) return;
    t.ok(isochrone.bbox.south <= center.lat && isochrone.bbox.north >= center.lat);
    if (previous) {
      for (const [direction, reach] of Object.entries(isochrone.reachM)) {
        t.ok(reach >= previous.reachM[direction as keyof typeof isochrone.reachM], `${direction} at ${minutes} min`);
      }
      t.ok(isochrone.bbox.north >= previous.bbox.north && isochrone.bbox.south <= previous.bbox.south);
    }
    previous = isochrone;
  }
  const walk = map.isochrone(center, 'foot', { meters: 1000 });
  t.ok(walk && Math.max(...Object.values(walk.reachM)) <= 1000 + 1, 'a distance budget bounds the straight-line reach');
  t.equal(map.isochrone(AT_SEA, 'car', { seconds: 600 }), undefined);
});

t.test('cafes near the square come back sorted by distance', async (t) => {
  const square = KNOWN_PLACES.square;
  const cafes = map.nearby(square, 500, [{ key: 'amenity', value: 'cafe' }], 10);
  t.ok(cafes.length >= 2);
  for (const cafe of cafes) {
    t.equal(map.features.tagsOf(cafe.feature).amenity, 'cafe');
    t.ok(cafe.distanceM <= 500);
  }
  t.same(
    cafes.map((cafe) => cafe.distanceM),
    [...cafes.map((cafe) => cafe.distanceM)].sort((a, b) => a - b),
  );
  t.equal(map.nearby(square, 500, [{ key: 'amenity', value: 'cafe' }], 1).length, 1, 'capped');
  const anyShop = map.nearby(square, 300, [{ key: 'shop' }], 25);
  t.ok(anyShop.length > 0 && anyShop.every((hit) => map.features.tagsOf(hit.feature).shop !== undefined), 'a bare key matches any value');
});

t.test('details of any element: tags and a centre', async (t) => {
  const stadium = map.element('way', 49209155);
  t.equal(stadium?.tags.leisure, 'stadium');
  t.equal(stadium?.tags.name, 'Stade Louis II');
  t.ok(stadium && haversineM(stadium.lat, stadium.lon, KNOWN_PLACES.stadium.lat, KNOWN_PLACES.stadium.lon) < 150, 'the centre is on the stadium');
  const monaco = map.element('relation', 1124039);
  t.ok(monaco && monaco.lat > 43.7 && monaco.lat < 43.76, 'a relation has a centre from its members');
  t.same(map.element('node', 21911886)?.tags, { highway: 'crossing', crossing_ref: 'zebra' }, 'a tagged node');
  t.equal(map.element('node', 21911863), undefined, 'an untagged node is geometry only, and not kept');
  t.equal(map.element('way', 1), undefined);
});
