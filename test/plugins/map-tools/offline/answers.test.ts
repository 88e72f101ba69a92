import t from 'tap';
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

t.test('reverse geocoding names a private street as the address', async (t) => {
  const { result } = await map.ok('reverse_geocode', { latitude: 43.725163, longitude: 7.417791 });
  t.match(result, { label: /^Port de Cap d'Ail/, osm_id: 'way/158215189' });
  t.equal((await tagsOf('way/158215189')).access, 'private');
});

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

  const matrix = await map.ok('route_matrix', { origins: [KNOWN_PLACES.stadium.query], destinations: [KNOWN_PLACES.square.query, KNOWN_PLACES.museum.query], profile: 'car' });
  t.ok((matrix.durations_min as number[][])[0]!.every((cell) => cell > 0), 'places on the map still route');
});
