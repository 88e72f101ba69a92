import { InputError } from './errors.js';
import type { TagFilter } from './providers/types.js';

/**
 * Category shortcuts and the map tags each stands for (any of them matches). The first
 * 25 are the specification's; the rest are this server's own.
 */
export const CATEGORY_SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  restaurant: ['amenity=restaurant'],
  cafe: ['amenity=cafe'],
  bar: ['amenity=bar'],
  hotel: ['tourism=hotel'],
  hostel: ['tourism=hostel'],
  museum: ['tourism=museum'],
  attraction: ['tourism=attraction'],
  viewpoint: ['tourism=viewpoint'],
  castle: ['historic=castle'],
  supermarket: ['shop=supermarket'],
  bakery: ['shop=bakery'],
  pharmacy: ['amenity=pharmacy'],
  hospital: ['amenity=hospital'],
  atm: ['amenity=atm'],
  fuel: ['amenity=fuel'],
  charging_station: ['amenity=charging_station'],
  parking: ['amenity=parking'],
  toilets: ['amenity=toilets'],
  drinking_water: ['amenity=drinking_water'],
  bus_stop: ['highway=bus_stop'],
  train_station: ['railway=station', 'railway=halt'],
  bicycle_rental: ['amenity=bicycle_rental'],
  playground: ['leisure=playground'],
  park: ['leisure=park'],
  beach: ['natural=beach'],
  pub: ['amenity=pub'],
  fast_food: ['amenity=fast_food'],
  ice_cream: ['amenity=ice_cream'],
  guest_house: ['tourism=guest_house'],
  camp_site: ['tourism=camp_site'],
  gallery: ['tourism=gallery'],
  zoo: ['tourism=zoo'],
  information: ['tourism=information'],
  monument: ['historic=monument', 'historic=memorial'],
  convenience: ['shop=convenience'],
  marketplace: ['amenity=marketplace'],
  clinic: ['amenity=clinic', 'amenity=doctors'],
  dentist: ['amenity=dentist'],
  police: ['amenity=police'],
  post_office: ['amenity=post_office'],
  bank: ['amenity=bank'],
  library: ['amenity=library'],
  cinema: ['amenity=cinema'],
  theatre: ['amenity=theatre'],
  place_of_worship: ['amenity=place_of_worship'],
};

/** OSM keys in practice: letters, digits and `_ : . -`. Anything else is refused, not escaped. */
const KEY = /^[A-Za-z0-9_:.-]{1,100}$/;
// Control characters have no place in a tag value and could break the query text.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A category as tag filters: a shortcut, a raw `key`, or a raw `key=value`. */
export function categoryFilters(category: string): TagFilter[] {
  const trimmed = category.trim();
  const shortcut = CATEGORY_SHORTCUTS[trimmed.toLowerCase()];
  const raw = shortcut ?? [trimmed];
  return raw.map((text) => parseTag(text, category));
}

function parseTag(text: string, category: string): TagFilter {
  const separator = text.indexOf('=');
  const key = (separator < 0 ? text : text.slice(0, separator)).trim();
  const value = separator < 0 ? undefined : text.slice(separator + 1).trim();
  if (!KEY.test(key) || (value !== undefined && (value === '' || CONTROL.test(value)))) {
    throw new InputError(
      `"${category}" is neither a category shortcut nor a map tag ("key" or "key=value", key of letters, digits, "_", ":", ".", "-"). Shortcuts include: ${Object.keys(CATEGORY_SHORTCUTS)
        .slice(0, 12)
        .join(', ')}, …`,
    );
  }
  return value === undefined ? { key } : { key, value };
}

/** How a filter list reads in a result: `amenity=cafe` or `amenity=clinic|amenity=doctors`. */
export function describeFilters(filters: readonly TagFilter[]): string {
  return filters.map((filter) => (filter.value === undefined ? filter.key : `${filter.key}=${filter.value}`)).join('|');
}
