import { Type, type Static, type TSchema } from 'typebox';

/*
 * Every tool's input and output schema. Field names are snake_case throughout:
 * coordinates are `latitude`/`longitude`, element ids `osm_id`, raw quantities carry
 * their unit (`distance_m`, `duration_s`, `radius_m`), and `*_text` fields are the
 * human-readable forms. `OUTPUT_SCHEMAS` is what `npm run schemas` writes to `schemas/`.
 */

export const SOURCE = 'openstreetmap';

// ---- inputs ---------------------------------------------------------------------

const Place = (description: string) => Type.String({ minLength: 1, maxLength: 300, description: `${description}: a place name, an address, or "lat,lon"` });
const Language = Type.String({
  pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
  maxLength: 35,
  default: 'en',
  description: 'IETF language code for returned place labels',
});
const ProfileInput = (required: boolean) => Type.Enum(['foot', 'car', 'bike'], { description: 'Travel profile', ...(required ? {} : { default: 'foot' }) });

export const GeocodeInput = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 300, description: 'Place name or address' }),
    provider: Type.Optional(
      Type.Enum(['geocoder_a', 'geocoder_b'], {
        default: 'geocoder_a',
        description: 'geocoder_a (default) is best for addresses; geocoder_b is typo-tolerant and better for fuzzy place names',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 3, description: 'How many matches, 1 to 10' })),
    language: Type.Optional(Language),
    countrycodes: Type.Optional(Type.String({ pattern: '^\\s*[A-Za-z]{2}(\\s*,\\s*[A-Za-z]{2})*\\s*$', description: 'Comma-separated ISO 3166-1 alpha-2 codes; geocoder_a only' })),
  },
  { additionalProperties: false },
);

export const ReverseGeocodeInput = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

export const RouteInput = Type.Object(
  {
    waypoints: Type.Array(Place('A waypoint'), { minItems: 2, maxItems: 25, description: 'Start, optional stops, destination, visited in order' }),
    profile: ProfileInput(true),
    include_steps: Type.Optional(Type.Boolean({ default: false, description: 'Add a turn-by-turn summary (first 100 steps)' })),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

export const RouteMatrixInput = Type.Object(
  {
    origins: Type.Array(Place('An origin'), { minItems: 1, maxItems: 12 }),
    destinations: Type.Array(Place('A destination'), { minItems: 1, maxItems: 12 }),
    profile: ProfileInput(true),
    language: Type.Optional(Language),
  },
  { additionalProperties: false, description: 'origins plus destinations must be at most 25' },
);

export const OptimizeRouteInput = Type.Object(
  {
    stops: Type.Array(Place('A stop'), { minItems: 3, maxItems: 12 }),
    profile: ProfileInput(true),
    roundtrip: Type.Optional(Type.Boolean({ default: true, description: 'true: the tour returns to the first stop; false: the first stop is the start and the last the end' })),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

export const IsochroneInput = Type.Object(
  {
    center: Place('The starting point'),
    profile: ProfileInput(true),
    minutes: Type.Optional(Type.Number({ minimum: 1, maximum: 120, description: 'Time budget; give exactly one of minutes or kilometers' })),
    kilometers: Type.Optional(Type.Number({ minimum: 0.1, maximum: 100, description: 'Distance budget; give exactly one of minutes or kilometers' })),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

const Category = Type.String({ minLength: 1, maxLength: 100, description: 'A category shortcut (restaurant, cafe, …) or a raw map tag "key" or "key=value"' });

export const FindNearbyPoisInput = Type.Object(
  {
    near: Place('The search centre'),
    category: Category,
    radius_m: Type.Optional(Type.Integer({ minimum: 50, maximum: 10000, default: 1000, description: 'Search radius in meters' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 25, default: 10 })),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

export const PoiDetailsInput = Type.Object(
  { osm_id: Type.String({ pattern: '^(node|way|relation)/[1-9][0-9]{0,15}$', description: 'node/<id>, way/<id> or relation/<id>' }) },
  { additionalProperties: false },
);

export const SuggestMeetingPointInput = Type.Object(
  {
    locations: Type.Array(Place('A starting point'), { minItems: 2, maxItems: 8 }),
    profile: Type.Optional(ProfileInput(false)),
    venue_category: Type.Optional({ ...Category, default: 'cafe' }),
    search_radius_m: Type.Optional(Type.Integer({ minimum: 100, maximum: 10000, default: 1500, description: 'Meters around the midpoint' })),
    language: Type.Optional(Language),
  },
  { additionalProperties: false },
);

export const StraightLineDistanceInput = Type.Object({ from: Place('The first place'), to: Place('The second place'), language: Type.Optional(Language) }, { additionalProperties: false });

export const MapLinkInput = Type.Object(
  {
    place: Type.Optional(Place('The place for a marker link')),
    from: Type.Optional(Place('The start of a directions link')),
    to: Type.Optional(Place('The destination of a directions link')),
    profile: Type.Optional(ProfileInput(false)),
    language: Type.Optional(Language),
  },
  { additionalProperties: false, description: 'Either place, or both from and to' },
);

// ---- outputs --------------------------------------------------------------------

const Common = {
  untrusted: Type.Literal(true, { description: 'The data comes from an openly editable map database' }),
  source: Type.Literal(SOURCE),
};
const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });
const OsmId = Type.String({ pattern: '^(node|way|relation)/[0-9]+$' });
const ProfileOutput = Type.Enum(['foot', 'car', 'bike']);
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A place input as resolved: the first geocoding match's label, or the coordinates as given. */
export const ResolvedPlaceOutput = Type.Object({
  input: Type.String(),
  label: Type.String(),
  latitude: Latitude,
  longitude: Longitude,
  osm_id: Type.Optional(OsmId),
});

const Match = Type.Object({
  label: Type.String(),
  latitude: Latitude,
  longitude: Longitude,
  osm_id: Type.Optional(OsmId),
  confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'how surely the match is what the query names (offline engine); matches below its threshold are not returned' })),
});
const Amount = {
  distance_m: Type.Number({ minimum: 0 }),
  duration_s: Type.Number({ minimum: 0 }),
  distance_text: Type.String(),
  duration_text: Type.String(),
};
const Leg = Type.Object({ from: Type.String({ description: 'label of the leg start' }), to: Type.String({ description: 'label of the leg end' }), ...Amount });
const Engine = Type.Enum(['default', 'alternative'], { description: 'default routing engine or alternative routing service' });

export const GeocodeOutput = Type.Object({
  query: Type.String(),
  provider: Type.Enum(['geocoder_a', 'geocoder_b']),
  count: Type.Integer({ minimum: 0 }),
  results: Type.Array(Match),
  ...Common,
});

export const ReverseGeocodeOutput = Type.Object({
  latitude: Latitude,
  longitude: Longitude,
  result: Match,
  private_street: Type.Optional(
    Type.Object(
      { name: Type.String(), osm_id: Type.Optional(OsmId), distance_m: Type.Number({ minimum: 0 }) },
      { description: 'a private street (access=private or no) the point lies beside, when a public street was preferred as the address' },
    ),
  ),
  ...Common,
});

export const RouteOutput = Type.Object({
  profile: ProfileOutput,
  engine: Engine,
  waypoints: Type.Array(ResolvedPlaceOutput),
  ...Amount,
  legs: Type.Optional(Type.Array(Leg, { description: 'present when there are more than two waypoints' })),
  steps: Type.Optional(
    Type.Array(Type.Object({ instruction: Type.String(), distance_m: Type.Number({ minimum: 0 }), duration_s: Type.Number({ minimum: 0 }) }), {
      maxItems: 100,
    }),
  ),
  steps_total: Type.Optional(Type.Integer({ minimum: 0, description: 'steps of the whole route, before the cap of 100' })),
  steps_truncated: Type.Optional(Type.Boolean()),
  ...Common,
});

const Cells = Type.Array(Type.Array(Nullable(Type.Number({ minimum: 0 }))));

export const RouteMatrixOutput = Type.Object({
  profile: ProfileOutput,
  origins: Type.Array(ResolvedPlaceOutput),
  destinations: Type.Array(ResolvedPlaceOutput),
  durations_min: { ...Cells, description: 'durations_min[origin][destination] in minutes; null where no route exists' },
  distances_km: { ...Cells, description: 'distances_km[origin][destination] in kilometers; null where no route exists' },
  ...Common,
});

export const OptimizeRouteOutput = Type.Object({
  profile: ProfileOutput,
  roundtrip: Type.Boolean(),
  stops: Type.Array(Type.Object({ ...ResolvedPlaceOutput.properties, input_index: Type.Integer({ minimum: 0 }) }), { description: 'in visiting order' }),
  ...Amount,
  legs: Type.Array(Leg),
  ...Common,
});

const Reach = Type.Object(Object.fromEntries(['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw'].map((key) => [key, Nullable(Type.Number({ minimum: 0 }))])), {
  description: 'farthest reachable straight-line distance in meters per compass direction (45° sectors); null where the outline has no point',
});

export const IsochroneOutput = Type.Object({
  center: ResolvedPlaceOutput,
  profile: ProfileOutput,
  engine: Engine,
  minutes: Type.Optional(Type.Number()),
  kilometers: Type.Optional(Type.Number()),
  reachable: Type.Boolean({ description: 'false when the engine found no reachable area' }),
  bbox: Nullable(Type.Object({ south: Latitude, west: Longitude, north: Latitude, east: Longitude })),
  reach_m: Reach,
  max_reach_m: Type.Number({ minimum: 0 }),
  ...Common,
});

const CoreTags = Type.Record(Type.String(), Type.String(), { description: 'cuisine, opening_hours, website, phone, wheelchair and similar, where present' });

const Poi = Type.Object({
  name: Nullable(Type.String()),
  osm_id: OsmId,
  latitude: Latitude,
  longitude: Longitude,
  distance_m: Type.Number({ minimum: 0 }),
  tags: CoreTags,
});

export const FindNearbyPoisOutput = Type.Object({
  near: ResolvedPlaceOutput,
  category: Type.String(),
  tag_filter: Type.String({ description: 'the map tags searched, alternatives separated by |' }),
  radius_m: Type.Integer(),
  count: Type.Integer({ minimum: 0 }),
  pois: Type.Array(Poi, { maxItems: 25 }),
  ...Common,
});

export const PoiDetailsOutput = Type.Object({
  osm_id: OsmId,
  name: Nullable(Type.String()),
  latitude: Latitude,
  longitude: Longitude,
  coordinates_are_center: Type.Boolean({ description: 'true for ways and relations, whose position is a centre' }),
  tags: Type.Record(Type.String(), Type.String({ maxLength: 501 }), {
    description: 'at most 60 tags, values cut at 500 characters: the core tags first (name, kind, address, contact, wiki links), then the others by key, translations (name:xx) last',
  }),
  tag_count: Type.Integer({ minimum: 0, description: 'tags of the record before the cap' }),
  tags_truncated: Type.Boolean(),
  map_url: Type.String(),
  ...Common,
});

const Venue = Type.Object({
  name: Nullable(Type.String()),
  osm_id: OsmId,
  latitude: Latitude,
  longitude: Longitude,
  distance_from_midpoint_m: Type.Number({ minimum: 0 }),
  max_minutes: Type.Number({ minimum: 0, description: 'the longest travel time of any person' }),
  total_minutes: Type.Number({ minimum: 0 }),
  travel: Type.Array(Type.Object({ from: Type.String(), minutes: Type.Number({ minimum: 0 }), kilometers: Type.Number({ minimum: 0 }) })),
  map_url: Type.String(),
});

export const SuggestMeetingPointOutput = Type.Object({
  profile: ProfileOutput,
  venue_category: Type.String(),
  locations: Type.Array(ResolvedPlaceOutput),
  midpoint: Type.Object({ latitude: Latitude, longitude: Longitude }),
  search_radius_m: Type.Integer(),
  suggestion: Venue,
  alternatives: Type.Array(Venue, { maxItems: 3 }),
  ...Common,
});

export const StraightLineDistanceOutput = Type.Object({
  from: ResolvedPlaceOutput,
  to: ResolvedPlaceOutput,
  distance_m: Type.Number({ minimum: 0 }),
  distance_km: Type.Number({ minimum: 0 }),
  distance_text: Type.String(),
  initial_bearing_deg: Type.Number({ minimum: 0, maximum: 360 }),
  formula: Type.String(),
  accuracy: Type.String(),
  ...Common,
});

export const MapLinkOutput = Type.Object({
  kind: Type.Enum(['marker', 'directions']),
  url: Type.String(),
  place: Type.Optional(ResolvedPlaceOutput),
  from: Type.Optional(ResolvedPlaceOutput),
  to: Type.Optional(ResolvedPlaceOutput),
  profile: Type.Optional(ProfileOutput),
  directions_engine: Type.Optional(Type.String()),
  ...Common,
});

export const TOOL_NAMES = [
  'geocode',
  'reverse_geocode',
  'route',
  'route_matrix',
  'optimize_route',
  'isochrone',
  'find_nearby_pois',
  'poi_details',
  'suggest_meeting_point',
  'straight_line_distance',
  'map_link',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const ESSENTIAL_TOOLS: readonly ToolName[] = ['geocode', 'reverse_geocode', 'route', 'find_nearby_pois', 'poi_details', 'map_link'];

/** Tool name → output schema, for `npm run schemas`. */
export const OUTPUT_SCHEMAS = {
  geocode: GeocodeOutput,
  reverse_geocode: ReverseGeocodeOutput,
  route: RouteOutput,
  route_matrix: RouteMatrixOutput,
  optimize_route: OptimizeRouteOutput,
  isochrone: IsochroneOutput,
  find_nearby_pois: FindNearbyPoisOutput,
  poi_details: PoiDetailsOutput,
  suggest_meeting_point: SuggestMeetingPointOutput,
  straight_line_distance: StraightLineDistanceOutput,
  map_link: MapLinkOutput,
} satisfies Record<ToolName, TSchema>;

/** Tool name → input schema. */
export const INPUT_SCHEMAS = {
  geocode: GeocodeInput,
  reverse_geocode: ReverseGeocodeInput,
  route: RouteInput,
  route_matrix: RouteMatrixInput,
  optimize_route: OptimizeRouteInput,
  isochrone: IsochroneInput,
  find_nearby_pois: FindNearbyPoisInput,
  poi_details: PoiDetailsInput,
  suggest_meeting_point: SuggestMeetingPointInput,
  straight_line_distance: StraightLineDistanceInput,
  map_link: MapLinkInput,
} satisfies Record<ToolName, TSchema>;

export type ToolInput<Name extends ToolName> = Static<(typeof INPUT_SCHEMAS)[Name]>;
export type ToolOutput<Name extends ToolName> = Static<(typeof OUTPUT_SCHEMAS)[Name]>;
