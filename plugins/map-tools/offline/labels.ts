import type { Tags } from './reader.js';

/** The name in the asked language where the map has one, else the default name. */
export function localName(tags: Tags, language: string): string | undefined {
  const primary = language.toLowerCase().split(/[-_]/)[0] ?? '';
  return tags[`name:${language}`] ?? tags[`name:${primary}`] ?? tags.name;
}

/** `<housenumber> <street>` or the street alone, from `addr:*` tags. */
export function streetAddress(tags: Tags): string | undefined {
  const street = tags['addr:street'] ?? tags['addr:place'];
  const number = tags['addr:housenumber'];
  if (street && number) return `${number} ${street}`;
  return street;
}

/** A display label in the spirit of a geocoder's: name, street address, postcode and city. */
export function placeLabel(tags: Tags, language: string): string {
  const city = [tags['addr:postcode'], tags['addr:city']].filter(Boolean).join(' ');
  const parts = [localName(tags, language), streetAddress(tags), city, tags['addr:country']].filter((part): part is string => Boolean(part));
  return [...new Set(parts)].join(', ');
}
