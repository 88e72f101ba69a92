import { closestMatch } from 'leven';
import type { TSchema } from 'typebox';

/** The declared key `key` was most likely meant to be: the same letters in another case, or within a small edit distance. */
export function nearestKey(key: string, known: string[]): string | undefined {
  const sameLetters = known.find((candidate) => candidate.toLowerCase() === key.toLowerCase());
  // Short names are close to many others: only one edit is a likely slip there.
  return sameLetters ?? closestMatch(key, known, { maxDistance: key.length <= 5 ? 1 : 2 });
}

/** The property names a TypeBox object schema declares (also through unions and intersections). */
export function propertyNames(schema: TSchema): string[] {
  const node = schema as { properties?: Record<string, unknown>; anyOf?: TSchema[]; allOf?: TSchema[] };
  return [...Object.keys(node.properties ?? {}), ...[...(node.anyOf ?? []), ...(node.allOf ?? [])].flatMap(propertyNames)];
}
