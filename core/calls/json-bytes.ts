/**
 * How many UTF-8 bytes `JSON.stringify(value)` would write, counted without writing it:
 * the console counts every call's arguments and result this way, and a stringified copy
 * of each (a kilobyte or more a call) was most of what its record of a call allocated
 * (issue 57). Written here because no library counts without serialising. What the walk
 * does not know as plain data (a `toJSON`, a boxed primitive, a BigInt, a cycle, nesting
 * past 64 levels, a getter that throws) is counted by serialising it, so the answer is
 * always JSON.stringify's; undefined where JSON.stringify writes nothing or throws.
 */
export function jsonByteLength(value: unknown): number | undefined {
  let counted: number;
  try {
    counted = walk(value, []);
  } catch {
    counted = UNKNOWN;
  }
  if (counted !== UNKNOWN) return counted === ABSENT ? undefined : counted;
  try {
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? undefined : Buffer.byteLength(text);
  } catch {
    return undefined;
  }
}

/** A value the walk leaves to JSON.stringify. */
const UNKNOWN = -1;
/** A value JSON.stringify leaves out of an object (and writes as null in an array). */
const ABSENT = -2;
const MAX_DEPTH = 64;
/**
 * What JSON.stringify escapes (a quote, a backslash, a control character) or writes
 * differently from its UTF-8 bytes (a lone surrogate, escaped; a paired one is four bytes
 * either way, and is left to JSON.stringify too, which is exact and rare).
 */
const NOT_PLAIN = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `ancestors`: the objects `value` is inside of (a cycle is left to JSON.stringify, which refuses it). */
function walk(value: unknown, ancestors: object[]): number {
  switch (typeof value) {
    case 'string':
      return NOT_PLAIN.test(value) ? Buffer.byteLength(JSON.stringify(value)) : Buffer.byteLength(value) + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'undefined':
    case 'function':
    case 'symbol':
      return ABSENT;
    case 'bigint':
      return UNKNOWN;
    case 'object':
      break;
  }
  if (value === null) return 4;
  if (
    ancestors.length >= MAX_DEPTH ||
    ancestors.includes(value) ||
    typeof (value as { toJSON?: unknown }).toJSON === 'function' ||
    value instanceof String ||
    value instanceof Number ||
    value instanceof Boolean
  ) {
    return UNKNOWN;
  }
  ancestors.push(value);
  const bytes = Array.isArray(value) ? arrayBytes(value as unknown[], ancestors) : objectBytes(value, ancestors);
  ancestors.pop();
  return bytes;
}

function arrayBytes(items: unknown[], ancestors: object[]): number {
  let bytes = 2 + Math.max(0, items.length - 1);
  for (const item of items) {
    const counted = walk(item, ancestors);
    if (counted === UNKNOWN) return UNKNOWN;
    bytes += counted === ABSENT ? 4 : counted;
  }
  return bytes;
}

function objectBytes(value: object, ancestors: object[]): number {
  let bytes = 2;
  let members = 0;
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const counted = walk((value as Record<string, unknown>)[key], ancestors);
    if (counted === UNKNOWN) return UNKNOWN;
    if (counted === ABSENT) continue;
    bytes += walk(key, ancestors) + 1 + counted + (members > 0 ? 1 : 0);
    members += 1;
  }
  return bytes;
}
