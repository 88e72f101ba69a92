import t from 'tap';
import { createOfflineProviders } from '../../../../plugins/map-tools/offline/index.js';
import { haversineM } from '../../../../plugins/map-tools/offline/geo.js';
import { AT_SEA, KNOWN_PLACES, MONACO_PBF } from './extract.js';

const lines: string[] = [];
const providers = await createOfflineProviders(MONACO_PBF, { log: (line) => lines.push(line) });
const { stadium, museum, square } = KNOWN_PLACES;

t.test('the provider set answers offline with the shared shapes', async (t) => {
  t.match(providers.description, /^offline from .*monaco\.osm\.pbf/);
  t.ok(lines.length >= 2, 'start-up is logged');
  t.equal(providers.routes, providers.router);
});

t.test('geocoders: matches with labels and element ids; reverse', async (t) => {
  const [a] = await providers.geocoders.geocoder_a.search('Stade Louis II', { limit: 3, language: 'en' });
  t.match(a, { label: 'Stade Louis II', elementId: 'way/49209155' });
  t.ok(a && haversineM(a.lat, a.lon, stadium.lat, stadium.lon) < 150);
  const [b] = await providers.geocoders.geocoder_b.search('Stade Luis', { limit: 3, language: 'en', countryCodes: ['mc'] });
  t.equal(b?.elementId, 'way/49209155');
  const reverse = await providers.geocoders.geocoder_a.reverse(square, { language: 'en' });
  t.match(reverse, { label: String, elementId: /^(node|way|relation)\/\d+$/ });
  t.equal(await providers.geocoders.geocoder_b.reverse(AT_SEA, { language: 'en' }), undefined);
});

t.test('router: route with steps, table with nulls, trip', async (t) => {
  const route = await providers.router.route([stadium, museum, square], 'foot', { steps: true, language: 'en' });
  t.equal(route?.legs.length, 2);
  const steps = route?.legs[0]?.steps ?? [];
  t.match(steps[0]?.instruction, /^Head /);
  t.equal(steps.at(-1)?.instruction, 'Arrive at the destination');
  t.notOk('wayIds' in (route?.legs[0] ?? {}), 'no engine internals leak');
  const plain = await providers.router.route([stadium, square], 'bike', { steps: false, language: 'en' });
  t.equal(plain?.legs[0]?.steps, undefined);
  t.equal(await providers.router.route([stadium, AT_SEA], 'car', { steps: false, language: 'en' }), undefined);
  const table = await providers.router.table([stadium, AT_SEA], [square, museum], 'car');
  t.equal(table.durationsS[1]?.[0], null);
  t.equal(table.distancesM[1]?.[1], null);
  t.ok((table.durationsS[0]?.[0] ?? 0) > 0 && (table.distancesM[0]?.[0] ?? 0) > 0);
  const trip = await providers.router.trip([stadium, square, museum], 'car', { roundtrip: true });
  t.equal(trip?.order[0], 0);
  t.equal(trip?.legs.length, 3);
  t.equal(await providers.router.trip([stadium, square, AT_SEA], 'car', { roundtrip: false }), undefined);
});

t.test('isochrone: one outline ring, empty when unreachable', async (t) => {
  const rings = await providers.isochrone.reachable(museum, 'foot', { seconds: 900 });
  t.equal(rings.length, 1);
  t.ok((rings[0]?.length ?? 0) > 8);
  t.same(await providers.isochrone.reachable(AT_SEA, 'foot', { meters: 500 }), []);
});

t.test('POIs and element details', async (t) => {
  const cafes = await providers.pois.nearby(square, 400, [{ key: 'amenity', value: 'cafe' }], 10);
  t.ok(cafes.length > 0);
  t.match(cafes[0], { id: /^(node|way|relation)\/\d+$/, tags: { amenity: 'cafe' } });
  const element = await providers.pois.element('way/49209155');
  t.match(element, { id: 'way/49209155', tags: { leisure: 'stadium' } });
  t.equal(await providers.pois.element('way/1'), undefined);
  t.equal(await providers.pois.element('street/1'), undefined);
});
