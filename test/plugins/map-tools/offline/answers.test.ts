import t from 'tap';
import { OfflineMap } from '../../../../plugins/map-tools/offline/engine.js';
import { METERS_PER_DEGREE_LAT, metersPerDegreeLon, projectOnSegment } from '../../../../plugins/map-tools/offline/geo.js';
import { startOfflineMap } from '../helpers.js';
import { KNOWN_PLACES, MONACO_PBF } from './extract.js';

/**
 * Answers of the map tools offline from the Monaco extract, through the hub, where a
 * person would expect something else than a plain index gives: ranking, names with
 * commas, private streets, long records, places off the map.
 */
const map = await startOfflineMap(t, MONACO_PBF);

interface Match {
  label: string;
  latitude: number;
  longitude: number;
  osm_id: string;
}

async function geocode(query: string, options: Record<string, unknown> = {}): Promise<Match[]> {
  return (await map.ok('geocode', { query, limit: 10, ...options })).results as Match[];
}

async function tagsOf(osmId: string): Promise<Record<string, string>> {
  return (await map.ok('poi_details', { osm_id: osmId })).tags as Record<string, string>;
}

t.test('an exact name beats the same words as another name (alt_name), on both geocoders', async (t) => {
  for (const provider of ['geocoder_a', 'geocoder_b']) {
    const results = await geocode('Avenue de Verdun', { provider });
    const exact = results.flatMap((match, rank) => (match.label === 'Avenue de Verdun' ? [rank] : []));
    const corniche = results.findIndex((match) => match.label === 'Moyenne Corniche');
    t.same(exact.slice(0, 2), [0, 1], `${provider}: the streets named so come first`);
    t.ok(corniche > exact.at(-1)!, `${provider}: Moyenne Corniche (alt_name=Avenue de Verdun) after them`);
    t.equal((await tagsOf(results[0]!.osm_id)).name, 'Avenue de Verdun', `${provider}: the first is named so in the file`);
  }
  t.match(await tagsOf('way/123008091'), { name: 'Moyenne Corniche', alt_name: 'Avenue de Verdun' }, 'as the file has it');
});

t.test('each geocoding result says how sure it is; a weak best match is no match', async (t) => {
  const [stadium] = await geocode('Stade Louis II');
  t.match(stadium, { osm_id: 'way/49209155', confidence: 1 });
  const fuzzy = (await geocode('Stade Luis II', { provider: 'geocoder_b' }))[0] as Match & { confidence: number };
  t.match(fuzzy, { osm_id: 'way/49209155' });
  t.ok(fuzzy.confidence >= 0.6 && fuzzy.confidence < 1, `a misspelt name is less sure (${fuzzy.confidence})`);
  t.match(
    await map.fail('geocode', { query: 'Stade Luis II' }),
    /^No match for "Stade Luis II" in the loaded map extract monaco\.osm\.pbf/,
    'geocoder_a is not typo-tolerant: the partial match is too weak',
  );
});

t.test('the ways of one street come back as one street, at a point on it', async (t) => {
  const results = await geocode('Avenue Princesse Grace');
  const streets = results.filter((match) => match.label === 'Avenue Princesse Grace');
  t.equal(streets.length, 1, 'a divided avenue of many ways is one result');
  t.equal(results[0], streets[0], 'and the first');
  t.equal((await tagsOf(streets[0]!.osm_id)).name, 'Avenue Princesse Grace');
  const reverse = await map.ok('reverse_geocode', { latitude: streets[0]!.latitude, longitude: streets[0]!.longitude });
  t.match(reverse.result, { label: /Avenue Princesse Grace/ }, 'the point lies on the avenue');
});

t.test('geocoder_a finds a name that holds a comma, and routes start there', async (t) => {
  const slipway = "cap D'Ail, cale mise à l eau";
  const [first] = await geocode(slipway);
  t.match(first, { osm_id: 'node/2333054976', label: slipway });
  t.equal((await tagsOf('node/2333054976')).leisure, 'slipway');
  const route = await map.ok('route', { waypoints: [slipway, KNOWN_PLACES.stadium.query], profile: 'foot' });
  t.match(route.waypoints, [{ input: slipway, osm_id: 'node/2333054976' }, { label: 'Stade Louis II' }]);
  const [withContext] = await geocode('Place du Casino, Monaco');
  t.match(withContext, { label: /^Place du Casino/ }, 'a first part that is a name still wins when the whole query is none');
});

t.test('reverse geocoding: beside a private street, the public street is the address and the private one a detail; on it, the private one', async (t) => {
  const points = pointsBesidePrivateStreets(await OfflineMap.load(MONACO_PBF), 15);
  t.equal(points.length, 15, 'fifteen points 15 m beside private streets, with a public named street within 150 m');
  for (const point of points) {
    const beside = await map.ok('reverse_geocode', { latitude: point.beside.lat, longitude: point.beside.lon });
    const result = beside.result as Match;
    t.not(result.osm_id, point.privateWay, `${point.name}: not the private street as the address`);
    t.notOk(point.privateWays.has(result.osm_id), `${point.name}: no private street as the address`);
    const tags = await tagsOf(result.osm_id);
    t.ok((tags.highway !== undefined && tags.name !== undefined) || tags['addr:housenumber'] !== undefined, `${point.name}: a public street or an address (${result.label})`);
    t.match(beside.private_street, { name: point.name, osm_id: point.privateWay }, `${point.name}: given as the private street beside`);
    t.ok(Math.abs((beside.private_street as { distance_m: number }).distance_m - 15) <= 1, 'at its distance');
    const on = await map.ok('reverse_geocode', { latitude: point.on.lat, longitude: point.on.lon });
    t.match(on.result, { osm_id: point.privateWay, label: new RegExp(`^${point.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }, `${point.name}: on it, the private street is the address`);
    t.notOk('private_street' in on, 'and no detail');
  }
});

/** Where the nearest named road is a private one (access=private or no), 15 m off it, and a public named road lies within 150 m. */
function pointsBesidePrivateStreets(engine: OfflineMap, count: number) {
  const g = engine.graph;
  const privateRoad = (road: number) => ['private', 'no'].includes(engine.features.tagsOf(g.roadFeature[road]!).access ?? '');
  const named = (road: number) => g.roadName[road]! >= 0;
  const privateWays = new Set<string>();
  for (let road = 0; road < g.roadCount; road++) if (named(road) && privateRoad(road)) privateWays.add(engine.features.elementId(g.roadFeature[road]!));
  const nearest = (lat: number, lon: number, accept: (road: number) => boolean) => {
    let best = { road: -1, distanceM: Infinity };
    for (let s = 0; s < g.segmentCount; s++) {
      const road = g.segmentRoad(s);
      if (!named(road) || !accept(road)) continue;
      const [a, b] = [g.segmentFrom[s]!, g.segmentTo[s]!];
      const { distanceM } = projectOnSegment(lat, lon, g.vertexLat[a]!, g.vertexLon[a]!, g.vertexLat[b]!, g.vertexLon[b]!);
      if (distanceM < best.distanceM) best = { road, distanceM };
    }
    return best;
  };
  const points: { name: string; privateWay: string; privateWays: Set<string>; on: { lat: number; lon: number }; beside: { lat: number; lon: number } }[] = [];
  const used = new Set<number>();
  for (let pass = 0; pass < 2 && points.length < count; pass++) {
    for (let road = 0; road < g.roadCount && points.length < count; road++) {
      if (!named(road) || !privateRoad(road) || (pass === 0 && used.has(road))) continue;
      for (let s = g.roadFirstSegment[road]!; s < g.roadFirstSegment[road + 1]! && points.length < count; s++) {
        const [a, b] = [g.segmentFrom[s]!, g.segmentTo[s]!];
        const on = { lat: (g.vertexLat[a]! + g.vertexLat[b]!) / 2, lon: (g.vertexLon[a]! + g.vertexLon[b]!) / 2 };
        const east = (g.vertexLon[b]! - g.vertexLon[a]!) * metersPerDegreeLon(on.lat);
        const north = (g.vertexLat[b]! - g.vertexLat[a]!) * METERS_PER_DEGREE_LAT;
        const length = Math.hypot(east, north);
        if (length < 10) continue;
        for (const side of [1, -1]) {
          const beside = { lat: on.lat + (side * 15 * east) / length / METERS_PER_DEGREE_LAT, lon: on.lon - (side * 15 * north) / length / metersPerDegreeLon(on.lat) };
          const any = nearest(beside.lat, beside.lon, () => true);
          const open = nearest(beside.lat, beside.lon, (other) => !privateRoad(other));
          if (any.road !== road || Math.abs(any.distanceM - 15) > 0.5 || open.distanceM > 150 || nearest(on.lat, on.lon, () => true).road !== road) continue;
          const name = engine.features.tagsOf(g.roadFeature[road]!).name!;
          points.push({ name, privateWay: engine.features.elementId(g.roadFeature[road]!), privateWays, on, beside });
          used.add(road);
          break;
        }
        if (pass === 0 && used.has(road)) break;
      }
    }
  }
  return points;
}

t.test('poi_details keeps the core tags within its 60-tag budget, then the rest, translations last', async (t) => {
  const details = await map.ok('poi_details', { osm_id: 'relation/1403916' });
  const tags = details.tags as Record<string, string>;
  const keys = Object.keys(tags);
  t.equal(keys.length, 60);
  t.ok((details.tag_count as number) > 200, 'hundreds of tags in the file');
  t.equal(details.tags_truncated, true);
  t.match(tags, { name: 'France métropolitaine', type: 'boundary', boundary: 'administrative', admin_level: '3', wikidata: 'Q212429', population: '63070344', timezone: 'Europe/Paris' });
  t.match(tags.wikipedia, /^fr:France métropolitaine$/);
  t.equal(keys[0], 'name', 'the name first');
  const firstTranslation = keys.findIndex((key) => key.startsWith('name:'));
  t.ok(firstTranslation > keys.indexOf('source:population'), 'translations after the other keys');
});

t.test('a place outside the extract, or far from any road, is named with the reason', async (t) => {
  const paris = '48.8566,2.3522';
  const outside = /"48\.8566,2\.3522" is outside the loaded map extract monaco\.osm\.pbf, which covers latitudes 43\.71 to 43\.77 and longitudes 7\.349 to 7\.491/;
  t.match(await map.fail('route_matrix', { origins: [paris, KNOWN_PLACES.stadium.query], destinations: [KNOWN_PLACES.square.query], profile: 'car' }), outside);
  t.match(await map.fail('route', { waypoints: [KNOWN_PLACES.stadium.query, paris], profile: 'car' }), outside);
  t.match(await map.fail('optimize_route', { stops: [KNOWN_PLACES.stadium.query, KNOWN_PLACES.square.query, paris], profile: 'foot' }), outside);
  t.match(await map.fail('suggest_meeting_point', { locations: [paris, KNOWN_PLACES.square.query] }), outside);
  t.match(await map.fail('isochrone', { center: '43.70,7.45', profile: 'foot', minutes: 10 }), /"43\.70,7\.45" is outside the loaded map extract monaco\.osm\.pbf/);

  const atSea = '43.73,7.45';
  const offRoad = /"43\.73,7\.45" is 1\.6 km from the nearest road open to cars in the extract monaco\.osm\.pbf; a route must start and end within 1\.0 km of one/;
  t.match(await map.fail('route', { waypoints: [KNOWN_PLACES.stadium.query, atSea], profile: 'car' }), offRoad);
  t.match(await map.fail('route_matrix', { origins: [KNOWN_PLACES.stadium.query], destinations: [atSea], profile: 'car' }), offRoad);
  t.match(await map.fail('isochrone', { center: atSea, profile: 'foot', kilometers: 1 }), /is 1\.6 km from the nearest road open to walkers/);

  const area = 'the loaded map extract monaco\\.osm\\.pbf, which covers latitudes 43\\.71 to 43\\.77 and longitudes 7\\.349 to 7\\.491';
  t.match(await map.fail('find_nearby_pois', { near: paris, category: 'cafe' }), new RegExp(`^"48\\.8566,2\\.3522" is outside ${area}\\.$`), 'no "no cafe nearby" for a place the map does not cover');
  t.match(await map.fail('reverse_geocode', { latitude: 48.8566, longitude: 2.3522 }), new RegExp(`^"48\\.8566,2\\.3522" is outside ${area}\\.$`), 'no "open sea?" either');
  for (const provider of ['geocoder_a', 'geocoder_b']) {
    t.match(
      await map.fail('geocode', { query: 'Paris', provider }),
      new RegExp(`^No match for "Paris" in ${area}\\. Try another spelling`),
      `${provider}: a name it does not hold is no match, not a garden in Monaco`,
    );
  }
  t.match(await map.fail('find_nearby_pois', { near: 'Paris', category: 'cafe' }), new RegExp(`^No match for "Paris" in ${area}\\.`));
  t.match(await map.fail('map_link', { place: 'Eiffel Tower' }), new RegExp(`^No match for "Eiffel Tower" in ${area}\\.`), 'also where the map is waited for only for names');
  t.match(await map.fail('route', { waypoints: ['Gare de Lyon', KNOWN_PLACES.stadium.query], profile: 'car' }), new RegExp(`^No match for "Gare de Lyon" in ${area}\\.`));
  t.match(
    await map.fail('poi_details', { osm_id: 'way/5013364' }),
    new RegExp(`^No tagged map element way/5013364 is in ${area} \\(it may lie outside it`),
    'an element elsewhere (the Eiffel Tower) is not said not to exist',
  );
  const inside = await map.ok('reverse_geocode', { latitude: KNOWN_PLACES.square.lat, longitude: KNOWN_PLACES.square.lon });
  t.match(inside.result, { label: /Place du Casino|Casino/ }, 'a point on the map still has its address');

  const matrix = await map.ok('route_matrix', { origins: [KNOWN_PLACES.stadium.query], destinations: [KNOWN_PLACES.square.query, KNOWN_PLACES.museum.query], profile: 'car' });
  t.ok(
    (matrix.durations_min as number[][])[0]!.every((cell) => cell > 0),
    'places on the map still route',
  );
});
