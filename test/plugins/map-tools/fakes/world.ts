/** The small made-up world every fake service answers from. */

export interface FakePlace {
  name: string;
  lat: number;
  lon: number;
  country: string;
  osm: [type: 'node' | 'way' | 'relation', id: number];
}

export const PLACES: FakePlace[] = [
  { name: 'Casino Square, Monaco', lat: 43.7396, lon: 7.4276, country: 'mc', osm: ['way', 1001] },
  { name: 'Monaco Station, Monaco', lat: 43.7388, lon: 7.4197, country: 'mc', osm: ['node', 1002] },
  { name: 'Prince Palace, Monaco', lat: 43.7314, lon: 7.4198, country: 'mc', osm: ['relation', 1003] },
  { name: 'Larvotto Beach, Monaco', lat: 43.7453, lon: 7.4348, country: 'mc', osm: ['node', 1004] },
  { name: 'Fontvieille Port, Monaco', lat: 43.7325, lon: 7.4185, country: 'mc', osm: ['node', 1005] },
  { name: 'Beausoleil Market, France', lat: 43.7426, lon: 7.4239, country: 'fr', osm: ['node', 1006] },
  { name: 'North Pole Camp', lat: 89.9, lon: 10, country: 'xx', osm: ['node', 1007] },
];

export interface FakePoi {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat: number;
  lon: number;
  tags: Record<string, string>;
}

export const POIS: FakePoi[] = [
  {
    type: 'node',
    id: 2001,
    lat: 43.7399,
    lon: 7.4279,
    tags: {
      amenity: 'cafe',
      name: 'Café de Paris',
      'name:fr': 'Café de Paris FR',
      cuisine: 'coffee_shop',
      opening_hours: 'Mo-Su 08:00-02:00',
      website: 'https://example.test/cafe',
      phone: '+377 1',
      wheelchair: 'yes',
      note: 'not a core tag',
    },
  },
  { type: 'way', id: 2002, lat: 43.7408, lon: 7.4262, tags: { amenity: 'cafe', name: 'Far Cafe' } },
  { type: 'node', id: 2003, lat: 43.7394, lon: 7.4273, tags: { amenity: 'cafe' } },
  { type: 'node', id: 2004, lat: 43.7391, lon: 7.4203, tags: { amenity: 'restaurant', name: 'Station Diner', cuisine: 'pizza' } },
  { type: 'node', id: 2005, lat: 43.738, lon: 7.425, tags: { amenity: 'cafe', name: 'Middle Cafe' } },
  { type: 'node', id: 2006, lat: 43.7384, lon: 7.4236, tags: { amenity: 'cafe', name: 'Arctic Cafe', unreachable: 'yes' } },
  { type: 'relation', id: 2007, lat: 43.74, lon: 7.424, tags: { railway: 'station', name: 'Gare' } },
  { type: 'node', id: 2008, lat: 43.7397, lon: 7.4277, tags: { 'name:en': 'Quote "Bar"', amenity: 'bar' } },
  {
    type: 'way',
    id: 2009,
    lat: 43.735,
    lon: 7.421,
    tags: Object.fromEntries<string>([
      ...Array.from({ length: 70 }, (_, index): [string, string] => [`key${String(index).padStart(2, '0')}`, 'v']),
      ['description', 'x'.repeat(900)],
      ['name', 'Tag Heavy'],
    ]),
  },
];

/** Points the fake routers cannot reach (no route). */
export function unreachable(point: { lat: number; lon: number }): boolean {
  return point.lat > 80 || POIS.some((poi) => poi.tags.unreachable === 'yes' && Math.abs(poi.lat - point.lat) < 1e-6 && Math.abs(poi.lon - point.lon) < 1e-6);
}

export function distance(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

/** Meters per second per profile, distinct so a test can tell which profile answered. */
export const SPEEDS: Record<string, number> = { car: 10, foot: 1.25, bike: 4 };
export const DETOUR = 1.3;
