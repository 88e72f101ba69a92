import { fromSchema } from '@openapi-contrib/openapi-schema-to-json-schema';

export type JsonSchema = Record<string, unknown>;

/** Schemas nested deeper than this (in JSON levels) are cut to "any value": a tool schema is read by a model, not a validator of record. */
const MAX_DEPTH = 48;

/** Where a schema is used: an input drops `readOnly` properties, an output `writeOnly` ones (OpenAPI 3.0's rule). */
export type Direction = 'input' | 'output';

/** The keywords of a schema whose values are schemas, maps of schemas or lists of schemas. */
const SCHEMA_VALUED = new Set(['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** OpenAPI's own keywords, which are not JSON Schema: a strict validator refuses them. */
const OPENAPI_ONLY = new Set(['discriminator', 'xml', 'externalDocs', 'example', 'nullable', '$schema']);

/**
 * An OpenAPI schema (already dereferenced) as a JSON Schema (2020-12) a tool can declare.
 * OpenAPI 3.0's dialect is converted by @openapi-contrib/openapi-schema-to-json-schema;
 * 3.1's is JSON Schema already. What no converter does is written here: a dereferenced
 * document may be cyclic (a comment's replies are comments), and a tool schema must be
 * plain JSON, so a schema met again inside itself becomes "any value" with a note; and
 * draft-04's boolean `exclusiveMinimum`/`exclusiveMaximum` become 2020-12's numbers.
 */
export function toJsonSchema(schema: unknown, version: '3.0' | '3.1', direction: Direction): JsonSchema {
  const acyclic = acyclicCopy(schema, [], 0);
  const converted =
    version === '3.0' && isObject(acyclic) ? (fromSchema(acyclic, { cloneSchema: false, removeReadOnly: direction === 'input', removeWriteOnly: direction === 'output' }) as unknown) : acyclic;
  const cleaned = modernise(converted);
  return isObject(cleaned) ? cleaned : {};
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function acyclicCopy(value: unknown, ancestors: object[], depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.includes(value)) return { description: 'Recursive: the same shape as an enclosing value.' };
  if (depth >= MAX_DEPTH) return {};
  ancestors.push(value);
  try {
    if (Array.isArray(value)) return value.map((item) => acyclicCopy(item, ancestors, depth + 1));
    const copy: JsonSchema = {};
    for (const [key, item] of Object.entries(value)) copy[key] = acyclicCopy(item, ancestors, depth + 1);
    return copy;
  } finally {
    ancestors.pop();
  }
}

/** Drops OpenAPI-only keywords and rewrites draft-04 forms, walking only where schemas are. */
function modernise(schema: unknown): unknown {
  if (typeof schema === 'boolean') return schema;
  if (!isObject(schema)) return {};
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (OPENAPI_ONLY.has(key) || key.startsWith('x-')) continue;
    if (SCHEMA_VALUED.has(key)) out[key] = Array.isArray(value) ? value.map(modernise) : modernise(value);
    else if (SCHEMA_MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, modernise(item)]));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(modernise);
    else out[key] = value;
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  // A list-valued `items` is draft-04's tuple form.
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    delete out.items;
  }
  return out;
}

/** Whether values of this schema are JSON objects (and nothing else): then the answer is the structured content as it is. */
export function isObjectSchema(schema: JsonSchema): boolean {
  if (schema.type !== undefined) return schema.type === 'object';
  if (Array.isArray(schema.allOf) && schema.allOf.some((member) => isObject(member) && isObjectSchema(member))) return true;
  return isObject(schema.properties) && schema.anyOf === undefined && schema.oneOf === undefined;
}
