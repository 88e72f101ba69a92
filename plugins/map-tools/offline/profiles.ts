import type { Tags } from './reader.js';

export type Profile = 'foot' | 'car' | 'bike';
export const PROFILES: readonly Profile[] = ['foot', 'car', 'bike'];

/** Travel speeds in km/h along and against the way's node order; 0 where the profile may not go. */
export interface Passage {
  forward: number;
  backward: number;
}

const WALK_KMH = 5;
const STEPS_WALK_KMH = 3;
/** A cyclist pushing the bike over pedestrian ways (where cycling is not allowed but walking is). */
const PUSH_KMH = 4;
const BIKE_KMH = 16;
/** Carrying a bike up or down steps. */
const STEPS_CARRY_KMH = 2;

/** Car speeds by highway class when no usable `maxspeed` is tagged: typical free-flow speeds. */
export const CAR_KMH: Readonly<Record<string, number>> = {
  motorway: 110,
  motorway_link: 60,
  trunk: 90,
  trunk_link: 50,
  primary: 65,
  primary_link: 45,
  secondary: 55,
  secondary_link: 40,
  tertiary: 45,
  tertiary_link: 35,
  unclassified: 35,
  residential: 25,
  living_street: 10,
  service: 15,
  road: 25,
};

/** Ways a bicycle may ride on by default, with their speeds; other foot-accessible ways are pushed. */
export const BIKE_KMH_BY_CLASS: Readonly<Record<string, number>> = {
  cycleway: 18,
  trunk: BIKE_KMH,
  trunk_link: BIKE_KMH,
  primary: BIKE_KMH,
  primary_link: BIKE_KMH,
  secondary: BIKE_KMH,
  secondary_link: BIKE_KMH,
  tertiary: BIKE_KMH,
  tertiary_link: BIKE_KMH,
  unclassified: BIKE_KMH,
  residential: BIKE_KMH,
  living_street: 10,
  service: 14,
  road: BIKE_KMH,
  track: 12,
  path: 12,
};

/** Ways a pedestrian may use by default (motorways and trunk roads are not among them). */
const FOOT_CLASSES = new Set([
  'primary',
  'primary_link',
  'secondary',
  'secondary_link',
  'tertiary',
  'tertiary_link',
  'unclassified',
  'residential',
  'living_street',
  'service',
  'road',
  'track',
  'path',
  'footway',
  'pedestrian',
  'steps',
  'cycleway',
  'bridleway',
  'corridor',
  'platform',
]);

const DENIED = new Set(['no', 'private', 'agricultural', 'forestry', 'delivery', 'military', 'emergency', 'psv', 'bus']);
const GRANTED = new Set(['yes', 'designated', 'permissive', 'destination', 'customers', 'official', 'discouraged']);

/** The access keys that apply to a profile, most general first: the last one tagged wins. */
const ACCESS_KEYS: Readonly<Record<Profile, readonly string[]>> = {
  foot: ['access', 'foot'],
  car: ['access', 'vehicle', 'motor_vehicle', 'motorcar'],
  bike: ['access', 'vehicle', 'bicycle'],
};

/** Every key `passage` reads: two ways that agree on these pass alike (the loader caches on them). */
export const PASSAGE_KEYS: readonly string[] = [
  'highway',
  'area',
  'access',
  'foot',
  'vehicle',
  'motor_vehicle',
  'motorcar',
  'bicycle',
  'oneway',
  'oneway:foot',
  'oneway:bicycle',
  'cycleway',
  'cycleway:left',
  'cycleway:right',
  'junction',
  'maxspeed',
  'sidewalk',
];

/** true/false where a tag decides, undefined where the highway class's default applies. */
function tagged(tags: Tags, profile: Profile): boolean | undefined {
  let verdict: boolean | undefined;
  for (const key of ACCESS_KEYS[profile]) {
    const value = tags[key]?.split(';')[0]?.trim();
    if (value === undefined) continue;
    if (DENIED.has(value)) verdict = false;
    else if (GRANTED.has(value)) verdict = true;
  }
  return verdict;
}

/** +1 one way along the node order, -1 against it, 0 both ways; undefined when no tag says. */
function onewayValue(value: string | undefined): 1 | -1 | 0 | undefined {
  if (value === undefined) return undefined;
  if (value === 'yes' || value === 'true' || value === '1') return 1;
  if (value === '-1' || value === 'reverse') return -1;
  if (value === 'no' || value === 'false' || value === '0') return 0;
  return undefined;
}

function onewayFor(tags: Tags, profile: Profile): 1 | -1 | 0 {
  const highway = tags.highway ?? '';
  if (profile === 'foot') return onewayValue(tags['oneway:foot']) ?? 0;
  if (profile === 'bike') {
    const specific = onewayValue(tags['oneway:bicycle']);
    if (specific !== undefined) return specific;
    // Contraflow cycle lanes open a one-way street to bicycles in both directions.
    if (/^opposite/.test(tags.cycleway ?? '') || /^opposite/.test(tags['cycleway:left'] ?? '') || /^opposite/.test(tags['cycleway:right'] ?? '')) return 0;
  }
  const general = onewayValue(tags.oneway);
  if (general !== undefined) return general;
  const junction = tags.junction;
  if (junction === 'roundabout' || junction === 'circular') return 1;
  if (highway === 'motorway' || highway === 'motorway_link') return 1;
  return 0;
}

/** `maxspeed` in km/h: plain numbers, `mph`, `walk` and the common country-zone values; undefined otherwise. */
export function parseMaxspeed(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim().toLowerCase();
  const numeric = /^(\d+(?:\.\d+)?)\s*(mph|km\/h|kmh|kph)?$/.exec(text);
  if (numeric) {
    const speed = Number(numeric[1]) * (numeric[2] === 'mph' ? 1.609344 : 1);
    return speed > 0 ? speed : undefined;
  }
  if (text === 'walk') return 6;
  if (/:living_street$/.test(text)) return 20;
  if (/:(urban|zone30)$/.test(text)) return text.endsWith('zone30') ? 30 : 50;
  if (/:rural$/.test(text)) return 80;
  if (/:(motorway)$/.test(text)) return 130;
  return undefined;
}

function speedFor(tags: Tags, profile: Profile): number {
  const highway = tags.highway ?? '';
  if (profile === 'foot') return highway === 'steps' ? STEPS_WALK_KMH : WALK_KMH;
  if (profile === 'car') {
    const limit = parseMaxspeed(tags.maxspeed);
    return limit ?? CAR_KMH[highway] ?? 0;
  }
  if (highway === 'steps') return STEPS_CARRY_KMH;
  const ride = BIKE_KMH_BY_CLASS[highway];
  if (ride !== undefined) return ride;
  return tagged(tags, 'bike') === true ? BIKE_KMH : PUSH_KMH;
}

function allowedByClass(tags: Tags, profile: Profile): boolean {
  const highway = tags.highway ?? '';
  if (profile === 'car') return highway in CAR_KMH;
  if (profile === 'foot') return FOOT_CLASSES.has(highway) || (tags.sidewalk !== undefined && tags.sidewalk !== 'no' && tags.sidewalk !== 'none');
  return highway in BIKE_KMH_BY_CLASS || FOOT_CLASSES.has(highway);
}

/**
 * Whether and how fast a profile may travel a way, from its tags alone. Ways under
 * construction, proposed or abandoned, and areas that are not pedestrian areas, are
 * never routable.
 */
export function passage(tags: Tags, profile: Profile): Passage {
  const highway = tags.highway;
  if (highway === undefined) return { forward: 0, backward: 0 };
  if (tags.area === 'yes' && highway !== 'pedestrian' && highway !== 'footway' && highway !== 'service') return { forward: 0, backward: 0 };
  const explicit = tagged(tags, profile);
  const permitted = explicit ?? allowedByClass(tags, profile);
  // Motorways stay closed to walkers and cyclists whatever a general `access=yes` says.
  const closedClass = profile !== 'car' && (highway === 'motorway' || highway === 'motorway_link') && tags[profile === 'foot' ? 'foot' : 'bicycle'] !== 'yes';
  if (!permitted || closedClass) {
    // A cyclist may still push the bike where walking is allowed.
    if (profile === 'bike' && explicit !== false && passage(tags, 'foot').forward > 0) return { forward: PUSH_KMH, backward: PUSH_KMH };
    return { forward: 0, backward: 0 };
  }
  const speed = speedFor(tags, profile);
  if (speed <= 0) return { forward: 0, backward: 0 };
  const oneway = onewayFor(tags, profile);
  return { forward: oneway === -1 ? 0 : speed, backward: oneway === 1 ? 0 : speed };
}
